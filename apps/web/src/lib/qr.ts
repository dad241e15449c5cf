import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as an SVG document, drawn in the browser (nothing leaves the device);
 * null until drawn. The encoder loads on first use, so pages without a QR code never fetch it.
 */
export function useQrSvg(text: string | null, width = 320): string | null {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSvg(null);
    if (!text) return;
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width }),
      )
      .then((value) => {
        if (live) setSvg(value);
      })
      .catch(() => {
        if (live) setSvg(null);
      });
    return () => {
      live = false;
    };
  }, [text, width]);
  return svg;
}
