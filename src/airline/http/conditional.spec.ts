import { isNotModified } from './conditional';

describe('isNotModified (If-None-Match at the origin, RFC 9110 §13.1.2)', () => {
  const etag = 'W/"abc"';

  it('matches the same tag, under weak comparison either way', () => {
    expect(isNotModified('W/"abc"', etag)).toBe(true);
    expect(isNotModified('"abc"', etag)).toBe(true);
    expect(isNotModified('W/"abc"', '"abc"')).toBe(true);
  });

  it('matches any member of a list, and *', () => {
    expect(isNotModified('"x", W/"y" ,W/"abc"', etag)).toBe(true);
    expect(isNotModified('W/"x",W/"abc"', etag)).toBe(true);
    expect(isNotModified('*', etag)).toBe(true);
  });

  it('an opaque tag may hold a comma', () => {
    expect(isNotModified('"a,b", "c"', 'W/"a,b"')).toBe(true);
    expect(isNotModified('"a,b"', 'W/"a"')).toBe(false);
  });

  it('does not match another tag, a tag without quotes, or no field', () => {
    expect(isNotModified('W/"abd"', etag)).toBe(false);
    expect(isNotModified('"ABC"', etag)).toBe(false);
    expect(isNotModified('abc', etag)).toBe(false);
    expect(isNotModified('', etag)).toBe(false);
    expect(isNotModified(undefined, etag)).toBe(false);
  });
});
