/* Internal: numbers as text the same way in every C locale.
 *
 * printf's "%g" writes the locale's decimal point (',' under de_DE.UTF-8, which no BVH or
 * JSON reader accepts). akio_format_number formats with "%.*g" and then puts '.' back where
 * the locale wrote its (possibly multi-byte) decimal point: in "%g" output every byte that is
 * not a digit, a sign or an exponent 'e' belongs to it. Only for finite values. */
#ifndef AK_IO_NUMBER_TEXT_H
#define AK_IO_NUMBER_TEXT_H

/* Room for "-d.dddddddddddddddde-308" at up to 17 digits, with the locale's point. */
#define AKIO_NUMBER_MAX 40

/* Writes v with `digits` significant digits (1..17) into buf; returns the length. -0 is
 * written as 0. */
int akio_format_number(char buf[AKIO_NUMBER_MAX], double v, int digits);

/* 1 when printf writes '.' for the decimal point in the current C locale, so its "%g" output
 * needs no repair (asked of printf itself, so it follows setlocale). Writers that print many
 * numbers ask once per line and print several numbers with one printf. */
int akio_locale_point_is_dot(void);

/* Puts '.' back where the locale wrote its decimal point in n bytes of "%g" output (numbers
 * separated by single spaces), in place, and NUL-terminates; returns the new length. */
int akio_repair_point(char *s, int n);

#endif
