/**
 * Luhn (mod 10) check digit test, shared by the airline's token service, the API's edge
 * validation and the Temporal UI codec's card masking.
 */

/** True when `digits` is a non-empty string of ASCII digits passing the Luhn (mod 10) check. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
