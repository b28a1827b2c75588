import { defineConfig } from 'agentc';

export default defineConfig({
  models: {
    'main-model': {
      provider: 'openai',
      model: 'gpt-4.1-mini',
      contextWindow: 128_000,
      encoding: 'o200k_base',
      tools: true,
      parallelToolCalls: true,
    },
  },
  platform: {
    owner: 'platform',
    requiredBlocks: ['persona-base'],
  },
  budgets: {
    promptWarnRatio: 0.25,
    promptErrorRatio: 0.5,
    descriptionMaxTokens: 400,
    maxSubAgents: 7,
  },
  dispatch: { toolPrefix: 'ask_', fanOutCap: 2 },
  flags: ['beta'],
  dynamicContext: {
    fields: ['date', 'user_id'],
    template: '<context>\nDate: {{date}}\n</context>',
  },
});
