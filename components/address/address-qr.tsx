import { encode } from 'uqr';

/** The address as a QR code: one SVG path built on the server, so no QR code library reaches the browser. */
export function AddressQr({ address, size = 160 }: { address: string; size?: number }) {
  const { data, size: modules } = encode(address.toUpperCase(), { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={`QR code of ${address}`}
      viewBox={`0 0 ${modules} ${modules}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="rounded bg-white"
      data-testid="address-qr"
    >
      <rect width={modules} height={modules} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
