import { joinPath } from '@upnext/contract/routes';
import { useEffect, useState } from 'react';

/** The public link a visitor opens (or a QR code carries) to join the queue with `joinCode`. */
export function joinUrl(joinCode: string, origin = window.location.origin): string {
  return `${origin}${joinPath(joinCode)}`;
}

/**
 * `text` as a QR code's SVG document, drawn in the browser (nothing leaves the device). The
 * encoder is fetched only by the screens that draw one (the join link panel, the boards).
 */
export function useQrSvg(text: string): string | null {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSvg(null);
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 320 }),
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
  }, [text]);
  return svg;
}
