#!/bin/sh
# SPDX-License-Identifier: MIT
# babeltrace2 reads the built-in recorder's CTF trace of trace_app on
# sim, without a warning, and shows exactly its events: a semaphore, a
# mark, the owner of a PI mutex boosted by its cause, every Alchemy
# service call (category alchemy).
# Twice recorded, the trace is the same bytes.  77: no babeltrace2.
set -eu
. "$(dirname "$0")/need.sh"
need babeltrace2
FUSION_TRACE="all,out=$dir/one" "$bin/trace_app"
"$bin/trace_app" --trace="all,out=$dir/two"
cmp "$dir/one/metadata" "$dir/two/metadata"
cmp "$dir/one/stream_0" "$dir/two/stream_0"
babeltrace2 "$dir/one" >"$dir/out" 2>"$dir/err"
if [ -s "$dir/err" ]; then
	cat "$dir/err" >&2
	exit 1
fi
# The time stamps aside (babeltrace2 prints them in the local zone).
sed 's/^\[[^]]*\] ([^)]*) //' "$dir/out" >"$dir/events"
cat >"$dir/expected" <<'END'
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_mutex_create", object = "0x300001000", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_sem_create", object = "0x200001001", result = 0 }
fusion:create: { cpu_id = 0 }, { thread = "urgent", prio = 31 }
fusion:start: { cpu_id = 0 }, { thread = "urgent", prio = 31 }
fusion:ready: { cpu_id = 0 }, { thread = "urgent", prio = 31 }
fusion:switch: { cpu_id = 0 }, { next = "urgent", prev = "main", reason = 0 }
fusion:block: { cpu_id = 0 }, { thread = "urgent", object = "go" }
fusion:switch: { cpu_id = 0 }, { next = "main", prev = "urgent", reason = 1 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_task_spawn", object = "0x100001003", result = 0 }
fusion:create: { cpu_id = 0 }, { thread = "owner", prio = 11 }
fusion:start: { cpu_id = 0 }, { thread = "owner", prio = 11 }
fusion:ready: { cpu_id = 0 }, { thread = "owner", prio = 11 }
fusion:switch: { cpu_id = 0 }, { next = "owner", prev = "main", reason = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "owner", service = "rt_mutex_acquire", object = "0x300001000", result = 0 }
fusion:wake: { cpu_id = 0 }, { thread = "urgent", object = "go", reason = 0 }
fusion:ready: { cpu_id = 0 }, { thread = "urgent", prio = 31 }
fusion:switch: { cpu_id = 0 }, { next = "urgent", prev = "owner", reason = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "urgent", service = "rt_sem_p", object = "0x200001001", result = 0 }
fusion:mark: { cpu_id = 0 }, { thread = "urgent", text = "urgent wants the lock" }
fusion:block: { cpu_id = 0 }, { thread = "urgent", object = "lock" }
fusion:prio: { cpu_id = 0 }, { thread = "owner", cause = "lock", prio = 31 }
fusion:switch: { cpu_id = 0 }, { next = "owner", prev = "urgent", reason = 1 }
fusion:alchemy: { cpu_id = 0 }, { thread = "owner", service = "rt_sem_v", object = "0x200001001", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "owner", service = "rt_timer_spin", object = "0", result = 0 }
fusion:wake: { cpu_id = 0 }, { thread = "urgent", object = "lock", reason = 0 }
fusion:ready: { cpu_id = 0 }, { thread = "urgent", prio = 31 }
fusion:prio: { cpu_id = 0 }, { thread = "owner", cause = "", prio = 11 }
fusion:switch: { cpu_id = 0 }, { next = "urgent", prev = "owner", reason = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "urgent", service = "rt_mutex_acquire", object = "0x300001000", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "urgent", service = "rt_mutex_release", object = "0x300001000", result = 0 }
fusion:exit: { cpu_id = 0 }, { thread = "urgent" }
fusion:switch: { cpu_id = 0 }, { next = "owner", prev = "urgent", reason = 4 }
fusion:alchemy: { cpu_id = 0 }, { thread = "owner", service = "rt_mutex_release", object = "0x300001000", result = 0 }
fusion:exit: { cpu_id = 0 }, { thread = "owner" }
fusion:switch: { cpu_id = 0 }, { next = "main", prev = "owner", reason = 4 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_task_spawn", object = "0x100001005", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_task_join", object = "0x100001003", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_task_join", object = "0x100001005", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_sem_delete", object = "0x200001001", result = 0 }
fusion:alchemy: { cpu_id = 0 }, { thread = "main", service = "rt_mutex_delete", object = "0x300001000", result = 0 }
END
diff -u "$dir/expected" "$dir/events"
# The dates babeltrace2 reads: the owner's 1 ms of CPU.
grep -c '^\[[0-9:]*\.001000000\]' "$dir/out" | grep -qx 17
echo ok
