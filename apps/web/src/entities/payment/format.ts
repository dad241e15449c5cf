/** Written for the reader's locale (the contract's one rule for a currency's decimals). */
export { formatMoney } from '@upnext/contract/money';
