/* SPDX-License-Identifier: MIT */
/** @file
 * The list of tracepoints, defined once.  Each line is
 *
 *   NK_TRACEPOINT(ID, name, category, thread, object, detail, arg, text)
 *
 * ID names the event (NK_TRACE_<ID>), name is its lower-case name as a
 * token (the text form's, and the CTF and LTTng event "fusion:<name>"),
 * category its category (NK_TRACE_CAT_<category>), and thread, object,
 * detail, arg the names of the record's fields as this event uses them
 * (NULL: the event leaves the field empty).  text is 1 when the one-line
 * text form shows the argument.  Whoever includes this file defines
 * NK_TRACEPOINT first; the order is the events' numbering, so new
 * events go at the end.
 */
/* clang-format off */
NK_TRACEPOINT(SWITCH,   switch,    SCHED,   "next",   "prev",   NULL,     "reason",   0)
NK_TRACEPOINT(READY,    ready,     SCHED,   "thread", NULL,     NULL,     "prio",     1)
NK_TRACEPOINT(BLOCK,    block,     SCHED,   "thread", "object", NULL,     NULL,       0)
NK_TRACEPOINT(WAKE,     wake,      SCHED,   "thread", "object", NULL,     "reason",   1)
NK_TRACEPOINT(TIMEOUT,  timeout,   SCHED,   "thread", "object", NULL,     NULL,       0)
NK_TRACEPOINT(TIMER,    timer,     TIMER,   "thread", "timer",  NULL,     "count",    0)
NK_TRACEPOINT(PRIO,     prio,      SCHED,   "thread", "cause",  NULL,     "prio",     1)
NK_TRACEPOINT(START,    start,     THREAD,  "thread", NULL,     NULL,     "prio",     1)
NK_TRACEPOINT(EXIT,     exit,      THREAD,  "thread", NULL,     NULL,     NULL,       0)
NK_TRACEPOINT(SUSPEND,  suspend,   SCHED,   "thread", NULL,     NULL,     "count",    1)
NK_TRACEPOINT(RESUME,   resume,    SCHED,   "thread", NULL,     NULL,     "count",    1)
NK_TRACEPOINT(RELAX,    relax,     MODE,    "thread", NULL,     NULL,     "reason",   1)
NK_TRACEPOINT(HARDEN,   harden,    MODE,    "thread", NULL,     NULL,     NULL,       0)
NK_TRACEPOINT(IRQ,      irq,       IRQ,     "domain", NULL,     NULL,     "irq",      1)
NK_TRACEPOINT(MIGRATE,  migrate,   SCHED,   "thread", NULL,     NULL,     "cpu",      0)
NK_TRACEPOINT(IRQ_EXIT, irq_exit,  IRQ,     "domain", NULL,     NULL,     "irq",      1)
NK_TRACEPOINT(CREATE,   create,    THREAD,  "thread", NULL,     NULL,     "prio",     1)
NK_TRACEPOINT(SERVICE,  service,   SERVICE, "thread", "service", "handle", "result",  1)
NK_TRACEPOINT(MARK,     mark,      MARK,    "thread", "text",   NULL,     NULL,       0)
NK_TRACEPOINT(WATCHDOG, watchdog,  MODE,    "thread", NULL,     NULL,     NULL,       0)
/* Each skin's service calls, in a category of its own: one line per
 * skin of skins.cmake (CMake checks), fired by src/skins/NAME/services.c. */
NK_TRACEPOINT(ALCHEMY,  alchemy,   ALCHEMY, "thread", "service", "object", "result",  1)
NK_TRACEPOINT(VXWORKS,  vxworks,   VXWORKS, "thread", "service", "object", "result",  1)
NK_TRACEPOINT(PSOS,     psos,      PSOS,    "thread", "service", "object", "result",  1)
NK_TRACEPOINT(RTAI,     rtai,      RTAI,    "thread", "service", "object", "result",  1)
/* clang-format on */
