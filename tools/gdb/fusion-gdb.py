# SPDX-License-Identifier: MIT
# Fusion's gdb support: loaded by gdb with any program linked with
# libfusion (see README, "Tools"), or by hand: `source fusion-gdb.py`.
#
# At load it tells gdb to pass the framework's own signals silently,
# and it adds three commands that read the runtime instance (the
# static `runtime_nk` of src/runtime/runtime.c) through the debug
# information:
#   info fusion threads [INSTANCE]  every nucleus thread
#   info fusion objects [INSTANCE]  the registry's objects, per skin
#   info fusion time [INSTANCE]     the date and each CPU's timers
# INSTANCE, an expression giving a `struct nk_instance *`, serves
# programs that create their own instances (nk_instance_create).
#
# The structures read are those of src/nucleus/internal.h, registry.c
# and the public headers; the numbers that have no debug information
# (#define) are repeated below from the header that defines them.
# Python's standard library and gdb's API only.

import gdb

# Signals the framework sends itself; gdb must neither stop nor print
# on them, and must pass them on.  glibc's SIGRTMIN is 34 (32 and 33
# are its own), and gdb names real-time signals by number.
SIGRTMIN = 34
FRAMEWORK_SIGNALS = (
    "SIGSYS",  # Syscall User Dispatch: a stray call relaxes (live/sud.c)
    "SIG%d" % (SIGRTMIN + 7),  # preemption kick (LIVE_SIG_PREEMPT)
    "SIG%d" % (SIGRTMIN + 9),  # the sim baton's cede (SIM_SIG_CEDE)
    "SIG%d" % (SIGRTMIN + 10),  # a session's doorbell (BE_SIG_DOORBELL)
    "SIGXCPU",  # the watchdog's RLIMIT_RTTIME (live/watchdog.c)
)
# NK_SIGDEBUG (SIGRTMIN + 8) is left to gdb's default (stop, print,
# pass): the program asked for it (NK_MODE_WARNSW, T_WARNSW) to hear of
# an unwanted mode switch, which is what its developer is looking for.

# Magic words (src/nucleus/internal.h): the instance's, and those of
# the nucleus objects a skin object may start with, by struct.
NK_INSTANCE_MAGIC = 0x4E4B494E
NUCLEUS_OBJECTS = {
    0x4E4B5359: "nk_synch",  # NK_SYNCH_MAGIC
    0x4E4B5345: "nk_sem",  # NK_SEM_MAGIC
    0x4E4B4D58: "nk_mutex",  # NK_MUTEX_MAGIC
}

# Thread state bits (include/fusion/thread.h).
NK_THREAD_DORMANT = 0x001
NK_THREAD_READY = 0x002
NK_THREAD_PENDING = 0x004
NK_THREAD_DELAYED = 0x008
NK_THREAD_SUSPENDED = 0x010
NK_THREAD_ZOMBIE = 0x020
NK_THREAD_CURRENT = 0x040
NK_THREAD_RELAXED = 0x080
THREAD_STATES = (
    (NK_THREAD_DORMANT, "dormant"),
    (NK_THREAD_READY, "ready"),
    (NK_THREAD_PENDING, "pending"),
    (NK_THREAD_DELAYED, "delayed"),
    (NK_THREAD_SUSPENDED, "suspended"),
    (NK_THREAD_ZOMBIE, "zombie"),
    (NK_THREAD_CURRENT, "current"),
    (NK_THREAD_RELAXED, "relaxed"),
)

# No walk of a list or tree goes further: a structure being changed by
# a stopped thread must not loop for ever.
MAX_WALK = 1 << 20


def handle_signals():
    for sig in FRAMEWORK_SIGNALS:
        gdb.execute("handle %s nostop noprint pass" % sig, to_string=True)


def fail(message):
    raise gdb.GdbError("fusion: " + message)


def struct_type(name):
    try:
        return gdb.lookup_type("struct " + name)
    except gdb.error:
        return None


def runtime_instance():
    """The runtime's struct nk_instance *, or an error saying why not."""
    try:
        sym = gdb.lookup_static_symbol("runtime_nk")
    except gdb.error:
        sym = None
    if sym is None or struct_type("nk_instance") is None:
        fail("not a Fusion program "
             "(no runtime_nk in the debug information)")
    if gdb.selected_inferior().pid == 0:
        fail("the program is not running")
    nk = sym.value()
    if int(nk) == 0:
        fail("the Fusion runtime is not created yet (runtime_nk is NULL)")
    return nk


def instance(arg):
    """The instance named by @arg (an expression), else the runtime's."""
    if arg.strip():
        try:
            nk = gdb.parse_and_eval(arg)
        except gdb.error as error:
            fail(str(error))
        if struct_type("nk_instance") is None:
            fail("no struct nk_instance in the debug information")
    else:
        nk = runtime_instance()
    nk = nk.cast(struct_type("nk_instance").pointer())
    magic = int(nk["magic"])
    if magic != NK_INSTANCE_MAGIC:
        fail("0x%x is no live instance (magic 0x%x)" % (int(nk), magic))
    return nk


def string(array):
    """A char array or pointer as a Python string."""
    return array.string(errors="replace")


def container_of(ptr, type_name, member):
    """The `struct type_name *` whose field @member @ptr points to."""
    etype = struct_type(type_name)
    offset = etype[member].bitpos // 8
    start = ptr.cast(gdb.lookup_type("char").pointer()) - offset
    return start.cast(etype.pointer())


def list_entries(head, type_name, member):
    """The objects of a struct nk_list, as `type_name *` values."""
    head_addr = int(head.address)
    pos = head["next"]
    for _ in range(MAX_WALK):
        if int(pos) == head_addr:
            return
        yield container_of(pos, type_name, member)
        pos = pos["next"]
    fail("list at 0x%x does not end (being changed?)" % head_addr)


def threads(nk):
    return list_entries(nk["core"]["threads"], "nk_thread", "instance_link")


def waiters(synch):
    return list_entries(synch["waiters"], "nk_thread", "wait_link")


def thread_name(thread):
    return string(thread["name"]) if int(thread) else "-"


def thread_state(thread):
    """@thread's state bits as nk_thread_state() reports them: current
    is not a bit of the field but its scheduler's pointer."""
    state = int(thread["state"])
    if int(thread["sched"]["curr"]) == int(thread):
        state |= NK_THREAD_CURRENT
    return state


def state_names(state):
    names = [name for bit, name in THREAD_STATES if state & bit]
    return "+".join(names) if names else "-"


def skins_of(nk, thread):
    """The personalities @thread carries, in the order it attached them."""
    slots = nk["core"]["personalities"]
    order = thread["pers_order"]
    return [
        string(slots[int(order[i])]["name"])
        for i in range(int(thread["nr_attached"]))
    ]


def gdb_threads():
    """gdb's thread number of each Linux thread id of the inferior."""
    return {t.ptid[1]: t.num for t in gdb.selected_inferior().threads()}


def shadow_tid(nk, thread):
    """The Linux thread id of @thread's shadow, or None.  Each backend
    keeps it in `struct <backend>_shadow`, field `tid`."""
    stype = struct_type("%s_shadow" % string(nk["be"]["name"]))
    shadow = thread["shadow"]
    if stype is None or int(shadow) == 0:
        return None
    try:
        return int(shadow.cast(stype.pointer())["tid"])
    except gdb.error:
        return None


class Registry:
    """The instance's registry: its entries and their namespaces."""

    def __init__(self, nk):
        self.reg = nk["core"]["registry"]
        self.slot_type = struct_type("nk_registry_slot")
        self.nr_ns = int(self.reg["nr_ns"])

    def namespace(self, ns):
        if ns == 0:
            return "default"
        if ns > self.nr_ns:
            return "namespace %d" % ns
        return string(self.reg["ns_names"][ns - 1])

    def entries(self):
        """(descriptor handle, class, namespace, name, object) per entry
        in use.  The handle is what a skin's descriptor holds: the type
        tag (the class's namespace id) above the registry handle."""
        if self.slot_type is None or int(self.reg["slots"]) == 0:
            return
        slots = self.reg["slots"].cast(self.slot_type.pointer())
        bits = int(self.reg["index_bits"])
        for i in range(min(int(self.reg["capacity"]), MAX_WALK)):
            slot = slots[i]
            tag = int(slot["type"])
            if tag == 0:
                continue
            handle = tag << 32 | int(slot["gen"]) << bits | i
            yield (
                handle,
                self.namespace(tag),
                self.namespace(int(slot["ns"])),
                string(slot["name"]),
                slot["object"],
            )


def nucleus_object(obj):
    """The nucleus object a registered object starts with, as every skin
    object with waiters is laid out: (its struct's name, a pointer to
    it), told by its magic word; (None, None) for anything else."""
    uint = gdb.lookup_type("unsigned int")
    name = NUCLEUS_OBJECTS.get(int(obj.cast(uint.pointer()).dereference()))
    if name is None:
        return None, None
    return name, obj.cast(struct_type(name).pointer())


def wait_queue(name, nobj):
    """The struct nk_synch * of a nucleus object (nucleus_object())."""
    return nobj if name == "nk_synch" else nobj["synch"].address


def object_classes(nk):
    """Registered objects by the address of their wait queue: what a
    pending thread's wait channel names."""
    found = {}
    for _, cls, _, name, obj in Registry(nk).entries():
        kind, nobj = nucleus_object(obj)
        if kind is not None:
            found[int(wait_queue(kind, nobj))] = "%s (%s)" % (name or "-", cls)
    return found


def wait_text(thread, classes):
    """What @thread waits for: the object and its owner, the date."""
    state = int(thread["state"])
    timer = thread["rtimer"]
    date = int(timer["date"]) if bool(timer["armed"]) else None
    if state & NK_THREAD_PENDING:
        synch = thread["wchan"]
        text = classes.get(int(synch), string(synch["name"]))
        if int(synch["owner"]):
            text += " owned by " + thread_name(synch["owner"])
        if date is not None:
            text += ", timeout at %d" % date
        return text
    if state & NK_THREAD_DELAYED:
        return "delay until %d" % date if date is not None else "delay"
    if state & NK_THREAD_SUSPENDED:
        return "resume"
    if state & NK_THREAD_DORMANT:
        return "start"
    return ""


def table(rows, indent="  "):
    """Rows of cells, left aligned; the last column is not padded."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [c.ljust(w) for c, w in zip(row[:-1], widths)] + [row[-1]]
        gdb.write((indent + "  ".join(cells)).rstrip() + "\n")


def headline(nk, what):
    gdb.write(
        "Fusion instance 0x%x, backend %s: %s\n"
        % (int(nk), string(nk["be"]["name"]), what)
    )


def plural(count, noun):
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")


class FusionCommand(gdb.Command):
    """An `info fusion` command: show() the instance its argument names."""

    def __init__(self, name):
        super().__init__("info fusion " + name, gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        try:
            self.show(instance(arg))
        except gdb.error as error:
            fail("cannot read the instance: %s" % error)


class InfoFusion(gdb.Command):
    """The state of the Fusion runtime instance: info fusion threads,
info fusion objects and info fusion time, or all three."""

    def __init__(self):
        super().__init__("info fusion", gdb.COMMAND_STATUS, prefix=True)

    def invoke(self, arg, from_tty):
        for what in ("threads", "objects", "time"):
            gdb.execute("info fusion %s %s" % (what, arg), from_tty)


class InfoFusionThreads(FusionCommand):
    """Every nucleus thread of the Fusion runtime instance.
Usage: info fusion threads [INSTANCE]
GDB: gdb's thread number (* the selected one), LWP: its Linux thread,
SKINS: the personalities it carries, CPU: its RT CPU, BASE and CUR: its
base and current (boosted) nucleus priority, SWITCHES: times switched
in, MODESW: switches to secondary mode, WAITS FOR: the object (its
registry name and class) and owner, or the date.  INSTANCE: an
expression giving a struct nk_instance * (default: the runtime's)."""

    def __init__(self):
        super().__init__("threads")

    def show(self, nk):
        classes = object_classes(nk)
        numbers = gdb_threads()
        selected = gdb.selected_thread()
        selected = selected.ptid[1] if selected else None
        rows = [
            ["", "GDB", "LWP", "NAME", "SKINS", "CPU", "BASE", "CUR",
             "STATE", "SWITCHES", "MODESW", "WAITS FOR"]
        ]
        for t in threads(nk):
            tid = shadow_tid(nk, t)
            stats = t["stats"]
            rows.append(
                [
                    "*" if tid is not None and tid == selected else "",
                    str(numbers.get(tid, "-")),
                    str(tid) if tid else "-",
                    thread_name(t),
                    ",".join(skins_of(nk, t)) or "-",
                    str(int(t["sched"]["cpu"])),
                    str(int(t["base_prio"])),
                    str(int(t["prio"])),
                    state_names(thread_state(t)),
                    str(int(stats["switches"])),
                    str(int(stats["mode_switches"])),
                    wait_text(t, classes),
                ]
            )
        headline(
            nk,
            "%s, %s"
            % (plural(int(nk["nr_cpus"]), "RT CPU"),
               plural(len(rows) - 1, "thread")),
        )
        table(rows, indent="")


def waiter_names(synch):
    names = [thread_name(t) for t in waiters(synch)]
    return "waiters " + ", ".join(names) if names else "no waiters"


def object_state(obj, owners):
    """What the nucleus says of a registered object: the thread of a
    task; the count of a semaphore, the owner of a mutex, and the
    waiters in queue order of everything that starts with a wait
    queue.  Tasks first: their control block starts with no magic."""
    if int(obj) in owners:
        return "thread " + owners[int(obj)]
    kind, nobj = nucleus_object(obj)
    if kind is None:
        return ""
    waiting = waiter_names(wait_queue(kind, nobj))
    if kind == "nk_sem":
        return "count %d, %s" % (int(nobj["count"]), waiting)
    if kind == "nk_mutex":
        owner = nobj["synch"]["owner"]
        if not int(owner):
            return "free, " + waiting
        return "owner %s, depth %d, %s" % (
            thread_name(owner), int(nobj["depth"]), waiting)
    return waiting


def extensions(nk):
    """Thread names by the address of each personality extension (a
    skin's task control block, which its task objects are)."""
    found = {}
    for t in threads(nk):
        for i in range(int(nk["core"]["nr_personalities"])):
            if bool(t["pers_attached"][i]):
                found[int(t["pers_ext"][i])] = thread_name(t)
    return found


class InfoFusionObjects(FusionCommand):
    """The registry's objects in the Fusion runtime instance, per skin.
Usage: info fusion objects [INSTANCE]
CLASS: the object's class, NAME: its registry name (- if anonymous),
HANDLE: what the skin's descriptor holds; then what the nucleus says
of semaphores (count), mutexes (owner, depth) and every object that
starts with a wait queue (waiters in queue order), and the thread of a
task.  INSTANCE: as for info fusion threads."""

    def __init__(self):
        super().__init__("objects")

    def show(self, nk):
        registry = Registry(nk)
        owners = extensions(nk)
        groups = {}
        for handle, cls, ns, name, obj in registry.entries():
            skin, _, short = cls.rpartition(".")
            groups.setdefault(skin or ns, []).append(
                [short, name or "-", "0x%x" % handle,
                 object_state(obj, owners)]
            )
        headline(
            nk,
            "%s in the registry"
            % plural(sum(len(rows) for rows in groups.values()), "object"),
        )
        for skin, rows in groups.items():
            gdb.write("%s:\n" % skin)
            table([["CLASS", "NAME", "HANDLE", "STATE"]] + rows)


def timers(tree):
    """The timers of an RT CPU's tree, earliest first (in order)."""
    node = tree["leftmost"]
    for _ in range(min(int(tree["count"]), MAX_WALK)):
        if int(node) == 0:
            return
        yield container_of(node, "nk_timer", "node")
        if int(node["right"]):
            node = node["right"]
            while int(node["left"]):
                node = node["left"]
        else:
            parent = node["parent"]
            while int(parent) and int(parent["right"]) == int(node):
                node, parent = parent, parent["parent"]
            node = parent


def timer_owners(nk):
    """Names for the nucleus's unnamed timers, by address."""
    found = {}
    for t in threads(nk):
        found[int(t["rtimer"].address)] = "timeout of " + thread_name(t)
    for cpu in range(int(nk["nr_cpus"])):
        sched = nk["scheds"][cpu]
        found[int(sched["rr_timer"].address)] = "round robin of cpu%d" % cpu
    return found


def timer_name(timer, owners):
    name = string(timer["name"])
    if name:
        return name
    if int(timer) in owners:
        return owners[int(timer)]
    block = gdb.current_progspace().block_for_pc(int(timer["handler"]))
    return block.function.name if block and block.function else "-"


class InfoFusionTime(FusionCommand):
    """The date and the pending timers of each RT CPU, earliest first.
Usage: info fusion time [INSTANCE]
On sim, the virtual date and each timer's distance from it; on live,
dates are CLOCK_MONOTONIC.  Dates in ns.  INSTANCE: as for info fusion
threads."""

    def __init__(self):
        super().__init__("time")

    def show(self, nk):
        backend = string(nk["be"]["name"])
        now = None
        sim = struct_type("sim")
        if backend == "sim" and sim is not None:
            now = int(nk["be_priv"].cast(sim.pointer())["now"])
            headline(nk, "virtual date %d ns" % now)
        else:
            headline(nk, "dates in ns of CLOCK_MONOTONIC")
        owners = timer_owners(nk)
        for cpu in range(int(nk["nr_cpus"])):
            sched = nk["scheds"][cpu]
            rows = []
            trees = sched["timers"]
            members = trees.type.range()[1] + 1
            for timer in (t for m in range(members)
                          for t in timers(trees[m])):
                date = int(timer["date"])
                interval = int(timer["interval"])
                row = [str(date)]
                if now is not None:
                    row.append("+%d" % (date - now))
                row += [str(interval) if interval else "-",
                        timer_name(timer, owners)]
                rows.append(row)
            gdb.write("cpu%d: %s\n" % (cpu, plural(len(rows), "timer")))
            if rows:
                head = ["DATE"] + (["IN"] if now is not None else [])
                table([head + ["PERIOD", "TIMER"]] + rows)


handle_signals()
InfoFusion()
InfoFusionThreads()
InfoFusionObjects()
InfoFusionTime()
