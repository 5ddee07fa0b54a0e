/* SPDX-License-Identifier: MIT */
/* The few error numbers the core returns, with their Linux values. */
#ifndef DYNHZ_ERRNO_H
#define DYNHZ_ERRNO_H

#define DZ_EPERM	1
#define DZ_ENOENT	2
#define DZ_EFAULT	14
#define DZ_EBUSY	16
#define DZ_ENOTDIR	20
#define DZ_EINVAL	22
#define DZ_ERANGE	34
#define DZ_ENAMETOOLONG 36
#define DZ_ENOSYS	38
#define DZ_ELOOP	40

#endif
