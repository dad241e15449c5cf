import { describe, expect, it } from 'vitest';
import { qrCodeSrc } from './MfaSection.tsx';

describe('qrCodeSrc', () => {
  it("re-encodes auth-js's raw SVG data URL so '#' colours do not cut it short", () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg"><path fill="#ffffff" d="M0 0h8v8H0z"/></svg>';
    const src = qrCodeSrc(`data:image/svg+xml;utf-8,${svg}`);
    expect(src.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(src).not.toContain('#');
    expect(decodeURIComponent(src.slice(src.indexOf(',') + 1))).toBe(svg);
  });

  it('leaves any other image URL as it is', () => {
    expect(qrCodeSrc('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });
});
