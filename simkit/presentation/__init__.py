"""What people see: the report's text and markdown, the glossary, plots, the board on a terminal."""
