"""Lays out the starter's image with lay_out's defaults, pushes two entries into its log
queue with the generated writer, and writes the image to argv[1]: the dump
tests/starter_protocols.rs inspects."""

import sys
import starter

image = starter.lay_out()
handle = starter.attach(image)
queue = starter.LogQueue(handle.log_queue())
queue.push(starter.LogEntry(), "python", "hello")
queue.push(starter.LogEntry(), "bot", "second entry")
del queue
handle.release()
with open(sys.argv[1], "wb") as f:
    f.write(image)
