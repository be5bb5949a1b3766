/* SPDX-License-Identifier: MIT */
/*
 * A Xenomai 3 program that sizes its heap for what it allocates: a
 * 16 KiB heap for two 8 KiB blocks.  <heap.h> alone.
 */
#include <heap.h>

#include <stdio.h>

int main(void)
{
	RT_HEAP heap;
	RT_HEAP_INFO info;
	void *a, *b, *c;

	if (rt_heap_create(&heap, "buffers", 16384, H_PRIO)) {
		fprintf(stderr, "rt_heap_create failed\n");
		return 1;
	}
	if (rt_heap_alloc(&heap, 8192, TM_NONBLOCK, &a) ||
	    rt_heap_alloc(&heap, 8192, TM_NONBLOCK, &b)) {
		fprintf(stderr, "two 8 KiB blocks do not fit a 16 KiB heap\n");
		return 1;
	}
	memset(a, 0, 8192);
	memset(b, 0, 8192);
	if (rt_heap_alloc(&heap, 8, TM_NONBLOCK, &c) != -EWOULDBLOCK ||
	    rt_heap_inquire(&heap, &info) || info.usedmem != 16384 ||
	    info.heapsize != 16384) {
		fprintf(stderr, "a full 16 KiB heap is not full\n");
		return 1;
	}
	rt_heap_free(&heap, a);
	rt_heap_free(&heap, b);
	rt_heap_delete(&heap);
	printf("heap_16k: ok\n");
	return 0;
}
