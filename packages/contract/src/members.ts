/**
 * A company member's role and the state of their membership. Apart from companies.ts, whose
 * schemas bring the phone rule (libphonenumber), so users.ts and the pages that only read a
 * user do not.
 */
export const companyRoles = ['owner', 'admin', 'staff'] as const;
export const companyUserStatuses = ['invited', 'active', 'disabled'] as const;
