// The single-send recipient: a country code and the number after it, joined into the digit-only
// international number the server takes.

/** Region and calling code; names come from Intl.DisplayNames in the user's language. */
const CALLING_CODES =
  'EG:20 SA:966 AE:971 KW:965 QA:974 BH:973 OM:968 JO:962 LB:961 SY:963 IQ:964 YE:967 PS:970 ' +
  'MA:212 DZ:213 TN:216 LY:218 SD:249 MR:222 SO:252 DJ:253 KM:269 TR:90 IR:98 PK:92 IN:91 BD:880 ' +
  'ID:62 MY:60 PH:63 SG:65 TH:66 VN:84 CN:86 JP:81 KR:82 AU:61 NZ:64 US:1 CA:1 MX:52 BR:55 ' +
  'AR:54 CO:57 CL:56 PE:51 GB:44 IE:353 FR:33 DE:49 IT:39 ES:34 PT:351 NL:31 BE:32 CH:41 AT:43 ' +
  'SE:46 NO:47 DK:45 FI:358 PL:48 GR:30 RO:40 UA:380 RU:7 NG:234 KE:254 ET:251 GH:233 ZA:27';

export interface Country {
  region: string;
  code: string;
}

export const COUNTRIES: Country[] = CALLING_CODES.split(' ').map((pair) => {
  const [region = '', code = ''] = pair.split(':');
  return { region, code };
});

export const DEFAULT_REGION = 'EG';

/** The international number in digits: calling code, then the number without its leading zeros. */
export function fullNumber(code: string, number: string): string {
  return code + number.replace(/\D/g, '').replace(/^0+/, '');
}
