"""A stored session as a document (sections of tables) and its renderings: the terminal, Markdown and HTML."""
