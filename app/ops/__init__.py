"""What a self-hoster runs the server *with*: metrics, backups and JSON logs.

One module, one job:

* `instruments.py`: the counters and histograms the hot paths touch (moves, flushes,
  hints); it imports nothing of the app, so the hub and the Devil's Grip service can
  call it without depending on anything above them;
* `census.py`: the gauges read at scrape time (rooms by phase, people, sockets, queue
  depth, database size) and the registry `/metrics` exposes, with the shard label;
* `access.py`: which client addresses may read `/metrics`;
* `backup.py`: a consistent copy of the database while the server runs, and its restore;
* `jsonlog.py`: one JSON object per log line (`DEMON_LOG_FORMAT=json`).
"""
