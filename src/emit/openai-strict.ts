/** The OpenAI strict shape lives in src/contracts (shared with the provider-schema check). */
export { nullable, toOpenAIStrict, toOpenAIStrictParameters } from '../contracts/openai-strict.js';
