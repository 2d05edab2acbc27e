// A customer is known by a key: their phone digits, or their business-scoped user id (BSUID,
// `US.13491208655302741918`) when WhatsApp withholds the phone. Conversation ids and live
// channels are `{phoneNumberId}_{key}`; a row's `phone_number` is null for a BSUID-only customer.

/** Two capital letters, a dot, then letters and digits (a parent BSUID adds `ENT.`). */
const BSUID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

export function isBsuid(key: string): boolean {
  return BSUID.test(key);
}

/** Who a row or an event is about, as the server names them. */
export interface CustomerIdentity {
  phone_number: string | null;
  user_id?: string | null;
  conversation_id: string;
}

/** The conversation id's last underscore-separated segment is the customer key. */
export function keyOfConversation(conversationId: string): string {
  return conversationId.split('_').pop() ?? conversationId;
}

/** The key a row or event stands for: the phone when known, else the BSUID. */
export function customerKey(identity: CustomerIdentity): string {
  return identity.phone_number || identity.user_id || keyOfConversation(identity.conversation_id);
}

/** The fields of a row for a key alone: a phone, or a BSUID without a phone. */
export function identityOfKey(key: string): { phone_number: string | null; user_id: string | null } {
  return isBsuid(key) ? { phone_number: null, user_id: key } : { phone_number: key, user_id: null };
}
