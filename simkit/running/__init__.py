"""Running games into datasets: the runner (chunks, resume, refusals), its executors (threads, Dask),
the Parquet parts and their manifest."""
