import { joinPath } from '@upnext/contract/routes';
import { useEffect, useState } from 'react';

/** The public link a visitor opens (or a QR code carries) to join the queue with `joinCode`. */
export function joinUrl(joinCode: string, origin = window.location.origin): string {
  return `${origin}${joinPath(joinCode)}`;
}

/**
 * A QR code of `text` as an SVG document, drawn in the browser (nothing leaves the device);
 * null until drawn. The encoder is fetched only by the screens that draw one (the join link
 * panel, the boards, the kiosk's ticket).
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
