/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: lstLib, doubly linked lists of the program's nodes, as
 * VxWorks lays them out (a LIST's node holds its first and last nodes).
 * Not locked: a list is the program's data, as on VxWorks.  NULL lists
 * and nodes are refused (nothing done, NULL or ERROR returned).
 */
#ifndef FUSION_VXWORKS_LSTLIB_H
#define FUSION_VXWORKS_LSTLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A node, at the start of the program's item. */
typedef struct node {
	struct node *next;     /**< the next node, NULL for the last */
	struct node *previous; /**< the previous node, NULL for the first */
} NODE;

/** A list of nodes. */
typedef struct {
	NODE node; /**< next: the first node, previous: the last */
	int count; /**< nodes in the list */
} LIST;

#define lstInit vxworks_lstInit
#define lstAdd vxworks_lstAdd
#define lstConcat vxworks_lstConcat
#define lstCount vxworks_lstCount
#define lstDelete vxworks_lstDelete
#define lstExtract vxworks_lstExtract
#define lstFind vxworks_lstFind
#define lstFirst vxworks_lstFirst
#define lstFree vxworks_lstFree
#define lstGet vxworks_lstGet
#define lstInsert vxworks_lstInsert
#define lstLast vxworks_lstLast
#define lstNext vxworks_lstNext
#define lstNth vxworks_lstNth
#define lstNStep vxworks_lstNStep
#define lstPrevious vxworks_lstPrevious

void lstInit(LIST *pList);
/* Append @pNode. */
void lstAdd(LIST *pList, NODE *pNode);
/* Move every node of @pAddList to the end of @pDstList. */
void lstConcat(LIST *pDstList, LIST *pAddList);
/* Nodes in @pList (ERROR for NULL). */
int lstCount(LIST *pList);
/* Unlink @pNode, a node of @pList. */
void lstDelete(LIST *pList, NODE *pNode);
/* Move @pStartNode..@pEndNode of @pSrcList into @pDstList (reset). */
void lstExtract(LIST *pSrcList, NODE *pStartNode, NODE *pEndNode,
		LIST *pDstList);
/* @pNode's position in @pList, from 1, or ERROR. */
int lstFind(LIST *pList, NODE *pNode);
NODE *lstFirst(LIST *pList);
/* free() every node (the program allocated them with malloc()), empty. */
void lstFree(LIST *pList);
/* Unlink and return the first node, NULL if empty. */
NODE *lstGet(LIST *pList);
/* Insert @pNode after @pPrev (NULL: first). */
void lstInsert(LIST *pList, NODE *pPrev, NODE *pNode);
NODE *lstLast(LIST *pList);
NODE *lstNext(NODE *pNode);
/* The @nodenum-th node, from 1; NULL out of range. */
NODE *lstNth(LIST *pList, int nodenum);
/* @nStep nodes after @pNode (before it when negative); NULL past an end. */
NODE *lstNStep(NODE *pNode, int nStep);
NODE *lstPrevious(NODE *pNode);

#ifdef __cplusplus
}
#endif

#endif
