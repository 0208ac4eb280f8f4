/**
 * Validation against the document, through the generated JSON Schemas: the API the rest of the kit uses (steps,
 * the reference gateway's reports, `cardspec validate`). Every violation is in the document's terms and masked.
 */
export type { Violation } from './violations';
export { selectRow, validateRequestObject, validateRequestEnvelope, validateAgainstRow } from './request';
export { answerAsHeld, echoViolations, mustEcho, readEnvelopeErrors, responseEnvelopeErrors, validateResponsePart, validateResponseEnvelope, withAnswersHeld } from './response';
export { validateText, decodeInput, InputError, MAX_INPUT_BYTES, SECOND_REQUEST_OBJECT, type TextResult, type TextOptions } from './text';
