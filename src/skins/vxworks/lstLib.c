/* SPDX-License-Identifier: MIT */
/*
 * VxWorks lists: the program's nodes, linked both ways; the first node's
 * previous and the last node's next are NULL.  No skin state: plain
 * functions on the program's data.
 */
#include <vxworks/lstLib.h>

#include <stdlib.h>

void lstInit(LIST *pList)
{
	if (pList) {
		pList->node.next = pList->node.previous = NULL;
		pList->count = 0;
	}
}

void lstInsert(LIST *pList, NODE *pPrev, NODE *pNode)
{
	NODE *next;

	if (pList == NULL || pNode == NULL)
		return;
	next = pPrev ? pPrev->next : pList->node.next;
	pNode->previous = pPrev;
	pNode->next = next;
	if (pPrev)
		pPrev->next = pNode;
	else
		pList->node.next = pNode;
	if (next)
		next->previous = pNode;
	else
		pList->node.previous = pNode;
	pList->count++;
}

void lstAdd(LIST *pList, NODE *pNode)
{
	if (pList)
		lstInsert(pList, pList->node.previous, pNode);
}

void lstDelete(LIST *pList, NODE *pNode)
{
	if (pList == NULL || pNode == NULL)
		return;
	if (pNode->previous)
		pNode->previous->next = pNode->next;
	else
		pList->node.next = pNode->next;
	if (pNode->next)
		pNode->next->previous = pNode->previous;
	else
		pList->node.previous = pNode->previous;
	pList->count--;
}

void lstConcat(LIST *pDstList, LIST *pAddList)
{
	if (pDstList == NULL || pAddList == NULL || pAddList->count == 0)
		return;
	if (pDstList->count == 0) {
		*pDstList = *pAddList;
	} else {
		pDstList->node.previous->next = pAddList->node.next;
		pAddList->node.next->previous = pDstList->node.previous;
		pDstList->node.previous = pAddList->node.previous;
		pDstList->count += pAddList->count;
	}
	lstInit(pAddList);
}

int lstCount(LIST *pList)
{
	return pList ? pList->count : ERROR;
}

void lstExtract(LIST *pSrcList, NODE *pStartNode, NODE *pEndNode,
		LIST *pDstList)
{
	int n = 1;

	if (pSrcList == NULL || pStartNode == NULL || pEndNode == NULL ||
	    pDstList == NULL)
		return;
	for (NODE *p = pStartNode; p != pEndNode; p = p->next) {
		if (p == NULL)
			return; /* @pEndNode does not follow @pStartNode */
		n++;
	}
	if (pStartNode->previous)
		pStartNode->previous->next = pEndNode->next;
	else
		pSrcList->node.next = pEndNode->next;
	if (pEndNode->next)
		pEndNode->next->previous = pStartNode->previous;
	else
		pSrcList->node.previous = pStartNode->previous;
	pSrcList->count -= n;
	pStartNode->previous = pEndNode->next = NULL;
	pDstList->node.next = pStartNode;
	pDstList->node.previous = pEndNode;
	pDstList->count = n;
}

int lstFind(LIST *pList, NODE *pNode)
{
	int index = 1;

	if (pList == NULL || pNode == NULL)
		return ERROR;
	for (NODE *p = pList->node.next; p; p = p->next, index++)
		if (p == pNode)
			return index;
	return ERROR;
}

NODE *lstFirst(LIST *pList)
{
	return pList ? pList->node.next : NULL;
}

NODE *lstLast(LIST *pList)
{
	return pList ? pList->node.previous : NULL;
}

void lstFree(LIST *pList)
{
	NODE *p = lstFirst(pList);

	while (p) {
		NODE *next = p->next;

		free(p);
		p = next;
	}
	lstInit(pList);
}

NODE *lstGet(LIST *pList)
{
	NODE *first = lstFirst(pList);

	lstDelete(pList, first);
	return first;
}

NODE *lstNext(NODE *pNode)
{
	return pNode ? pNode->next : NULL;
}

NODE *lstPrevious(NODE *pNode)
{
	return pNode ? pNode->previous : NULL;
}

NODE *lstNStep(NODE *pNode, int nStep)
{
	for (; pNode && nStep > 0; nStep--)
		pNode = pNode->next;
	for (; pNode && nStep < 0; nStep++)
		pNode = pNode->previous;
	return pNode;
}

NODE *lstNth(LIST *pList, int nodenum)
{
	if (pList == NULL || nodenum < 1 || nodenum > pList->count)
		return NULL;
	return lstNStep(pList->node.next, nodenum - 1);
}
