/** The one ordering of siblings lives in the document package (documents' table records use it too). */
export { compareOrderKeys, orderKeyBetween, orderKeysBetween, orderKeysFor } from '@quire/document/order-keys';
