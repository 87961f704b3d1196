"""Studies: sets of runs that answer one question, summarised with intervals and plots.

``simkit.studies.registry.KINDS`` is the registry of study kinds, one entry each (``StudyKind``):
its question, its configurations (a fixed grid, or a search that proposes
the next configuration from the results so far), its summary tables and
its figures. ``simkit.studies.base.run_study`` plays a ``Study`` of any kind (see
``simkit.studies.base`` for the study directory and how studies resume,
grow and refuse to overwrite one another).
"""
