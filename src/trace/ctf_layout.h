/* SPDX-License-Identifier: MIT */
/*
 * The binary layout the CTF writer describes in its metadata and the
 * reader expects: every field byte-aligned, in the host's byte order.
 */
#ifndef FUSION_TRACE_CTF_LAYOUT_H
#define FUSION_TRACE_CTF_LAYOUT_H

#include "config.h"

#include <stdint.h>

#define CTF_MAGIC 0xc1fc1fc1u
#define CTF_TRACER "fusion"
#define CTF_TRACER_MAJOR 1
#define CTF_HOST_LE (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define TRACE_OUT_PATH_MAX (TRACE_OUT_MAX + 32)

/* Packet header and context, as written (packed: no padding). */
struct __attribute__((packed)) ctf_packet_head {
	uint32_t magic;
	uint32_t stream_id;
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t content_size; /* bits */
	uint64_t packet_size;  /* bits */
	uint64_t events_discarded;
	uint32_t cpu_id;
};

#define CTF_PACKET_HEAD_SIZE sizeof(struct ctf_packet_head)

#endif
