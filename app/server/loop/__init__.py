"""What keeps the rooms' event loop on time: the garbage collector's policy
(`collector.py`), and the watch that measures how late the loop runs (`watch.py`)."""
