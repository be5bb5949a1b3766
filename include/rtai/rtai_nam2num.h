/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI object names: up to six characters packed into a number.
 *
 * RTAI names every object (task, semaphore, mailbox...) with an
 * unsigned long computed from a short string: each character is one
 * digit in base 39 ('0'-'9' are 1-10, letters 11-36 without regard to
 * case, '_' 37, any other character 38), and the result is offset by
 * 2.  The encoding is RTAI's own, so that numbers written into programs
 * keep naming the same objects.  num2nam() gives the name back, letters
 * in upper case and any other character as '$'.
 */
#ifndef FUSION_RTAI_NAM2NUM_H
#define FUSION_RTAI_NAM2NUM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest name nam2num() reads (characters beyond are ignored). */
#define RTAI_NAME_CHARS 6

/** The base of the encoding. */
#define RTAI_NAME_BASE 39UL

/** What nam2num() gives for the empty string. */
#define RTAI_NAME_NONE 0xFFFFFFFFUL

/**
 * The number of @p name (its first six characters); 0xFFFFFFFF for an
 * empty or NULL name.
 */
static inline unsigned long nam2num(const char *name)
{
	unsigned long num = 0;
	int i;

	if (name == NULL || name[0] == '\0')
		return RTAI_NAME_NONE;
	for (i = 0; i < RTAI_NAME_CHARS && name[i]; i++) {
		int c = name[i], digit;

		if (c >= '0' && c <= '9')
			digit = c - '0' + 1;
		else if (c >= 'a' && c <= 'z')
			digit = c - 'a' + 11;
		else if (c >= 'A' && c <= 'Z')
			digit = c - 'A' + 11;
		else
			digit = c == '_' ? 37 : 38;
		num = num * RTAI_NAME_BASE + (unsigned long)digit;
	}
	return num + 2;
}

/**
 * The name of @p num into @p name (at least seven bytes): the inverse
 * of nam2num(), upper case; "" for a number below 2 or
 * 0xFFFFFFFF.
 */
static inline void num2nam(unsigned long num, char *name)
{
	char rev[RTAI_NAME_CHARS + 1];
	int n = 0, i;

	if (name == NULL)
		return;
	if (num < 2 || num == RTAI_NAME_NONE) {
		name[0] = '\0';
		return;
	}
	num -= 2;
	while (num && n < RTAI_NAME_CHARS) {
		unsigned long digit = num % RTAI_NAME_BASE;

		if (digit >= 1 && digit <= 10)
			rev[n++] = (char)('0' + digit - 1);
		else if (digit >= 11 && digit <= 36)
			rev[n++] = (char)('A' + digit - 11);
		else
			rev[n++] = digit == 37 ? '_' : '$';
		num /= RTAI_NAME_BASE;
	}
	for (i = 0; i < n; i++)
		name[i] = rev[n - 1 - i];
	name[n] = '\0';
}

#ifdef __cplusplus
}
#endif

#endif
