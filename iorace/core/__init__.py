"""The words every layer shares: errors, paths, the closed sets (status, kind, verdict), a cell's identity,
the session's options and the machine's description. Imports nothing of iorace."""
