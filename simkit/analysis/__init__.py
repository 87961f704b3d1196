"""Numbers from datasets: every statistic and interval, per-part aggregates, the report's tables
and the metrics of the studies."""
