/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: memPartLib.  A memory partition manages pools of the
 * program's memory (memPartCreate(), memPartAddToPool()) with the
 * nucleus's TLSF heap: allocation and release take constant time and
 * never call the system allocator.  Blocks are 16-byte aligned.
 */
#ifndef FUSION_VXWORKS_MEMPARTLIB_H
#define FUSION_VXWORKS_MEMPARTLIB_H

#include <vxworks/memLib.h>
#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pools one partition may manage. */
#define VX_MEM_PART_POOLS 16

/* A handle, never an address (vxWorks.h). */
typedef struct vxworks_mem_part *PART_ID;

/** What memPartInfoGet() reports, in bytes and blocks. */
typedef struct {
	unsigned long numBytesFree;	/**< free, in every pool */
	unsigned long numBlocksFree;	/**< free blocks (fragments) */
	unsigned long maxBlockSizeFree; /**< the largest block it can give */
	unsigned long numBytesAlloc;	/**< allocated, overhead included */
	unsigned long numBlocksAlloc;	/**< blocks allocated */
} MEM_PART_STATS;

#define memPartCreate vxworks_memPartCreate
#define memPartAddToPool vxworks_memPartAddToPool
#define memPartAlloc vxworks_memPartAlloc
#define memPartAlignedAlloc vxworks_memPartAlignedAlloc
#define memPartFree vxworks_memPartFree
#define memPartInfoGet vxworks_memPartInfoGet
#define memSysPartIdGet vxworks_memSysPartIdGet
#define memAddToPool vxworks_memAddToPool
/* VxWorks's variable, read through a call (no global in the library). */
#define memSysPartId (vxworks_memSysPartIdGet())

/*
 * A partition managing @poolSize bytes at @pPool (which stays the
 * program's, and must outlive the partition).  NULL with
 * S_memLib_INVALID_NBYTES (NULL pool, or too small for one block),
 * S_memLib_NOT_ENOUGH_MEMORY, S_intLib_NOT_ISR_CALLABLE.
 */
PART_ID memPartCreate(char *pPool, unsigned int poolSize);
/*
 * Add @poolSize bytes at @pPool to @partId.  ERROR with
 * S_objLib_OBJ_ID_ERROR, S_memLib_INVALID_NBYTES,
 * S_memLib_NOT_ENOUGH_MEMORY (VX_MEM_PART_POOLS pools already).
 */
STATUS memPartAddToPool(PART_ID partId, char *pPool, unsigned int poolSize);
/*
 * A block of @nBytes (0 counts as 1), or NULL with
 * S_memLib_NOT_ENOUGH_MEMORY, S_objLib_OBJ_ID_ERROR,
 * S_intLib_NOT_ISR_CALLABLE.
 */
void *memPartAlloc(PART_ID partId, unsigned int nBytes);
/*
 * As memPartAlloc(), the block aligned on @alignment, a power of two
 * (else NULL with S_memLib_INVALID_NBYTES).
 */
void *memPartAlignedAlloc(PART_ID partId, unsigned int nBytes,
			  unsigned int alignment);
/*
 * Give @pBlock back (NULL: nothing).  ERROR with S_memLib_BLOCK_ERROR
 * (not a block of @partId, or already free), S_objLib_OBJ_ID_ERROR.
 */
STATUS memPartFree(PART_ID partId, char *pBlock);
/* @partId's statistics into *@ppartStats.  ERROR, S_objLib_OBJ_ID_ERROR. */
STATUS memPartInfoGet(PART_ID partId, MEM_PART_STATS *ppartStats);
/*
 * The system partition (memSysPartId), made on first use without a
 * pool: memAddToPool() gives it memory (malloc() does not use it).
 * NULL with S_memLib_NOT_ENOUGH_MEMORY.
 */
PART_ID memSysPartIdGet(void);
/* memPartAddToPool() on the system partition. */
STATUS memAddToPool(char *pPool, unsigned int poolSize);

#ifdef __cplusplus
}
#endif

#endif
