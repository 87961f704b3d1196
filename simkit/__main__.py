"""`python -m simkit` runs the command line."""

from simkit.cli import app

app(prog_name="simkit")
