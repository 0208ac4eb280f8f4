/** `cardspec openapi`'s library side: build the OpenAPI 3.1 document of the JSON interface, and check one. */
export { buildOpenApi, DEFAULT_SERVER, JSON_PATH, OPENAPI_VERSION, SECURITY_SCHEME, type OpenApiDocument, type OpenApiOptions } from './document';
export { checkOpenApi, componentValidator, resolvePointer } from './check';
export { findPrism, startPrism, PrismError, type RunningPrism } from './prism';
export { loadComponents, SchemaFileError, type Json, type JsonValue } from './schemas';
