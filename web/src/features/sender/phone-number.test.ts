import { asciiDigits, COUNTRIES, fullNumber } from './phone-number';

describe('phone numbers', () => {
  it.each([
    ['US', '(555) 010-0002', '+15550100002'],
    ['US', '+44 7700 900123', '+447700900123'],
    ['EG', '00966 50 123 4567', '+966501234567'],
    ['EG', '010 0123 4567', '+201001234567'],
    ['SA', '٠٥٠ ١٢٣ ٤٥٦٧', '+966501234567'],
    ['GB', '۰۷۷۰۰ ۹۰۰۱۲۳', '+447700900123'],
  ])('reads a number typed in %s as %s', (region, typed, e164) => {
    expect(fullNumber(region, typed)).toBe(e164);
  });

  it('refuses what is no number', () => {
    expect(fullNumber('US', '12')).toBeNull();
    expect(fullNumber('US', 'hello')).toBeNull();
    expect(fullNumber('GB', '+44 77')).toBeNull();
  });

  it('maps both Arabic-Indic digit sets', () => {
    expect(asciiDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789 0123456789');
  });

  it('offers every country with its calling code', () => {
    expect(COUNTRIES).toContainEqual({ region: 'GB', code: '44' });
    expect(COUNTRIES).toContainEqual({ region: 'EG', code: '20' });
    expect(COUNTRIES.length).toBeGreaterThan(200);
  });
});
