"""The command line's commands, one module each (``run``, ``report``, ``study``, ``play``, ``confirm``, ``fair``,
``card``, ``replay``), and what they share: the consoles (``output``), the one-line errors (``errors``), the
options several commands take (``options``), the progress display (``progress``), Ctrl-C and SIGTERM
(``stopping``), a study's tables (``study_summary``) and the app's group (``group``), which imports a command's
module only when that command runs. ``cli.py`` lists the commands.
"""
