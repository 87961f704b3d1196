"""Studies: sets of runs that answer one question, summarised with intervals and plots.

``simkit.studies.registry.KINDS`` is the registry of study kinds, one entry each (``StudyKind``):
its question, its configurations (a fixed grid, or a search that proposes
the next configuration from the results so far), its summary tables and
its figures. ``simkit.studies.kind`` defines what a study is made of;
``simkit.studies.loop.run_study`` plays a ``Study`` of any kind, resuming and growing
it; ``simkit.studies.directory`` keeps its directory (refusing to overwrite another
study); ``simkit.studies.summary`` writes its summary.
"""
