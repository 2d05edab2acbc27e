// The single-send recipient: a country and the number as typed, read with libphonenumber into the
// international number the server takes.
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

export interface Country {
  region: string;
  code: string;
}

/** Every country libphonenumber knows; names come from Intl.DisplayNames in the user's language. */
export const COUNTRIES: Country[] = getCountries().map((region) => ({ region, code: getCountryCallingCode(region) }));

/** The country a sender starts with when the server names none. */
export const FALLBACK_REGION = 'US';

/** Arabic-Indic digits (٠-٩ and ۰-۹) as ASCII digits; every other character as it is. */
export function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (digit) => String(digit.charCodeAt(0) & 0xf));
}

function isCountry(region: string): region is CountryCode {
  return COUNTRIES.some((country) => country.region === region);
}

/**
 * The E.164 number (`+447700900123`) of `typed` read as a number of `region` (or as an
 * international one when written with + or 00); null when it is no possible number.
 */
export function fullNumber(region: string, typed: string): string | null {
  const text = asciiDigits(typed.trim()).replace(/^00/, '+');
  const parsed = parsePhoneNumberFromString(text, isCountry(region) ? region : undefined);
  return parsed?.isPossible() ? parsed.number : null;
}
