/** Whether this browser can run WebAuthn ceremonies (what auth-js checks before one). */
export function browserSupportsWebAuthn(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.PublicKeyCredential === 'function' &&
    typeof navigator.credentials?.get === 'function'
  );
}
