/**
 * Sends the browser to another page with a full load: a payment provider's checkout, or back
 * from it. One object, so tests can watch where the app would go (jsdom does not navigate).
 */
export const leaveApp = {
  to(url: string): void {
    window.location.assign(url);
  },
};
