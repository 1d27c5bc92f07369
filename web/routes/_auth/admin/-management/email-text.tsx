/**
 * An e-mail address that wraps after its '@' first (anywhere only when a part alone is too long), so a long
 * address neither widens its table column or card nor is cut off.
 */
export function EmailText({ address }: { address: string }) {
  const at = address.indexOf("@");
  return (
    <span className="wrap-anywhere">
      {at < 0 ? (
        address
      ) : (
        <>
          {address.slice(0, at + 1)}
          <wbr />
          {address.slice(at + 1)}
        </>
      )}
    </span>
  );
}
