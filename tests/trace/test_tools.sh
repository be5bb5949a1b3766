#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion trace report and export --perfetto on trace_app's trace (sim):
# the report's exact text; a JSON file in the trace-event format (each
# slice on a named thread track, each wake-up arrow's two ends, the fill
# counters of fill_app's queue and semaphore); bad
# arguments and directories refused.  77: no python3 to check the JSON.
set -eu
. "$(dirname "$0")/need.sh"
need python3
FUSION_TRACE="all,out=$dir/trace" "$bin/trace_app"
"$bin/fusion" trace report "$dir/trace" >"$dir/report"
cat >"$dir/expected" <<'END'
40 events on 1 CPUs, 0 lost, 1000.000 us

priority inversions (an owner boosted for a waiter)
  owner            (prio 11) held lock for a waiter of prio 31: 1000.000 us, from 0.000 us

thread           cpu time (us)  switches  wake-ups  latency min/avg/max (us)
main                     0.000         2         0
urgent                   0.000         3         3  0.000/0.000/0.000
owner                 1000.000         3         1  0.000/0.000/0.000

wake-up latency (ready to running)
  < 1 us     4
  < 10 us    0
  < 100 us   0
  < 1 ms     0
  < 10 ms    0
  < 100 ms   0
  >= 100 ms  0

longest waits per object
  lock                 1000.000 us by urgent           (1 waits)
  go                      0.000 us by urgent           (1 waits)

mode switches
  (none)

marks 1, service calls 15 (0 failed)
END
diff -u "$dir/expected" "$dir/report"

"$bin/fusion" trace export --perfetto -o "$dir/trace.json" "$dir/trace"
python3 - "$dir/trace.json" <<'END'
import json, sys

doc = json.load(open(sys.argv[1]))
events = doc["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"]
         for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
slices = [e for e in events if e["ph"] == "X"]
assert slices, "no slice"
for e in slices:
    assert e["dur"] >= 0 and e["ts"] >= 0, e
    assert (e["pid"], e["tid"]) in names, e
tracks = {names[(e["pid"], e["tid"])] for e in slices}
assert tracks == {"urgent", "owner", "main"}, tracks
# owner ran 1 ms holding the lock, urgent waited for it as long.
assert {"name": "running", "ts": 0.0, "dur": 1000.0} in [
    {k: e[k] for k in ("name", "ts", "dur")} for e in slices
    if names[(e["pid"], e["tid"])] == "owner"], "owner's 1 ms"
assert any(e["name"] == "blocked: lock" and e["dur"] == 1000.0
           for e in slices), "urgent's wait"
starts = {e["id"]: e for e in events if e["ph"] == "s"}
ends = {e["id"]: e for e in events if e["ph"] == "f"}
assert starts and starts.keys() == ends.keys(), "unmatched arrows"
for i, f in ends.items():
    assert f["bp"] == "e" and f["ts"] >= starts[i]["ts"]
marks = [e for e in events if e["ph"] == "i" and e["cat"] == "mark"]
assert [m["name"] for m in marks] == ["urgent wants the lock"], marks
services = [e for e in events if e["ph"] == "i" and e["cat"] == "alchemy"]
assert len(services) == 15 and services[0]["args"] == {
    "object": "0x300001000", "result": 0}, services[0]
assert services[0]["name"] == "rt_mutex_create", services[0]
END

# Fill counters: a queue filled with three messages and read empty (its
# fourth message is handed to a waiting reader, never queued), a
# semaphore given twice and taken once.
FUSION_TRACE="all,out=$dir/fill" "$bin/fill_app"
"$bin/fusion" trace export --perfetto -o "$dir/fill.json" "$dir/fill"
python3 - "$dir/fill.json" <<'END'
import json, sys

events = json.load(open(sys.argv[1]))["traceEvents"]
counters = [e for e in events if e["ph"] == "C"]
assert all(e["pid"] == 3 and list(e["args"]) == ["fill"] for e in counters)
series = {}
for e in counters:
    series.setdefault(e["name"].split()[0], []).append(e["args"]["fill"])
assert series == {"queue": [0, 1, 2, 3, 2, 1, 0, 0, 0],
                  "sem": [0, 1, 2, 1]}, series
assert {"ph": "M", "pid": 3, "tid": 0, "name": "process_name",
        "args": {"name": "fusion objects (fill)"}} in events
END

# Bad arguments: usage and status 2; a missing or foreign trace: 1.
status() { set +e; "$@" >/dev/null 2>&1; echo $?; set -e; }
[ "$(status "$bin/fusion" trace)" = 2 ]
[ "$(status "$bin/fusion" trace frobnicate)" = 2 ]
[ "$(status "$bin/fusion" trace export "$dir/trace")" = 2 ]
[ "$(status "$bin/fusion" trace report -x)" = 2 ]
[ "$(status "$bin/fusion" trace report "$dir/none")" = 1 ]
mkdir "$dir/foreign"
echo "/* CTF 1.8 */" >"$dir/foreign/metadata"
"$bin/fusion" trace report "$dir/foreign" 2>&1 | grep -q "not a trace of the fusion recorder"
[ "$(status "$bin/fusion" trace export --perfetto -o /nonexistent/x.json "$dir/trace")" = 1 ]
"$bin/fusion" trace --help | grep -q "fusion trace report"
echo ok
