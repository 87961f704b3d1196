"""Files written safely: durable atomic writes and a run directory's lock."""
