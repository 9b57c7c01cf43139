/* hpm_lib.h: tiny freestanding support library for hpm-overlay programs. */
#ifndef HPM_LIB_H
#define HPM_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

void uart_putc(char c);          /* polls tx_busy, then sends */
void uart_puts(const char *s);   /* no newline added */
int  uart_getc(void);            /* -1 if no byte is waiting */
int  uart_getc_blocking(void);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int puts(const char *s);         /* adds '\n' */
int putchar(int c);

void  *memcpy(void *dst, const void *src, size_t n);
void  *memmove(void *dst, const void *src, size_t n);
void  *memset(void *dst, int c, size_t n);
int    memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int    strcmp(const char *a, const char *b);
char  *strcpy(char *dst, const char *src);

#endif
