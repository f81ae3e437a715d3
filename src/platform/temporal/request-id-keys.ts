// Where a workflow carries the id of the API request that started it: a memo
// entry (shown in the Temporal UI, inherited by its children and its continued
// runs) and an activity header (read by the worker's activity interceptor).
// Imported by the workflow bundle, so nothing here may touch Node.

/** The memo key and the activity header name. */
export const REQUEST_ID_KEY = 'requestId';
