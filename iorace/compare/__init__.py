"""Two sides judged cell by cell (compare), a cell's series over sessions (history), and the machines of a
shared store (fleet)."""
