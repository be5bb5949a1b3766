/* SPDX-License-Identifier: MIT */
/* VxWorks skin: the memory error status values (memLib). */
#ifndef FUSION_VXWORKS_MEMLIB_H
#define FUSION_VXWORKS_MEMLIB_H

#include <vxworks/vxWorks.h>

#define S_memLib_NOT_ENOUGH_MEMORY (M_memLib | 1)
#define S_memLib_INVALID_NBYTES (M_memLib | 2)
#define S_memLib_BLOCK_ERROR (M_memLib | 3)
#define S_memLib_NO_PARTITION_DESTROY (M_memLib | 4)
#define S_memLib_PAGE_SIZE_UNAVAILABLE (M_memLib | 5)

#endif
