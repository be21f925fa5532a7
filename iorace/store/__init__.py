"""Every session, cell and run in SQLite or PostgreSQL: the records (one declaration per table), the SQL
dialects, and the Store. Knows nothing of how a cell is built or run: the pipeline hands it records."""
