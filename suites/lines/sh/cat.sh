# Strategy: LIMIT, not line by line: the system's cat (GNU coreutils) copies the file in large blocks.
exec cat -- "$1"
