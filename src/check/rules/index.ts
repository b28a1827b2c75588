/**
 * Every check rule, in catalog order. Adding a rule: one file in this folder,
 * one line here, one catalog entry (src/diagnostics/catalog.ts), one fixture.
 */
import type { Rule } from '../rule.js';
import { blockBudget } from './block-budget.js';
import { blockOwnership } from './block-ownership.js';
import { cohortExplosion } from './cohort-explosion.js';
import { descriptionBudget } from './description-budget.js';
import { duplicateId } from './duplicate-id.js';
import { evalAgent } from './eval-agent.js';
import { evalCoverage } from './eval-coverage.js';
import { evalExpect } from './eval-expect.js';
import { evalHistory } from './eval-history.js';
import { evalUnknownFlag } from './eval-unknown-flag.js';
import { dynamicInPrefix } from './dynamic-in-prefix.js';
import { fanOutCap } from './fan-out-cap.js';
import { jsonSchema } from './json-schema.js';
import { fileName } from './file-name.js';
import { historyBudget } from './history-budget.js';
import { modelCapability } from './model-capability.js';
import { platformBlockDeclared } from './platform-block-declared.js';
import { platformBlockOwner } from './platform-block-owner.js';
import { promptBudget } from './prompt-budget.js';
import { providerSchema } from './provider-schema.js';
import { recursionDepth } from './recursion-depth.js';
import { relayStructuredAnswer } from './relay-structured-answer.js';
import { suffixTemplate } from './suffix-template.js';
import { renderSize } from './render-size.js';
import { roleShape } from './role-shape.js';
import { statusEventUnrendered } from './status-event-unrendered.js';
import { subAgentCycle } from './sub-agent-cycle.js';
import { templateUnknownVariable } from './template-unknown-variable.js';
import { tokenBudget } from './token-budget.js';
import { toolName } from './tool-name.js';
import { toolNotWhitelisted } from './tool-not-whitelisted.js';
import { tooManySubAgents } from './too-many-sub-agents.js';
import { tooManyTools } from './too-many-tools.js';
import { unknownBlock } from './unknown-block.js';
import { unknownFlag } from './unknown-flag.js';
import { unknownModel } from './unknown-model.js';
import { unknownStatusEvent } from './unknown-status-event.js';
import { unknownSubAgent } from './unknown-sub-agent.js';
import { unknownTool } from './unknown-tool.js';
import { unreachableAgent } from './unreachable-agent.js';
import { unusedBlock } from './unused-block.js';
import { unusedModel } from './unused-model.js';
import { unusedTool } from './unused-tool.js';
import { volatileInPrefix } from './volatile-in-prefix.js';

export const RULES: readonly Rule[] = [
  duplicateId,
  jsonSchema,
  providerSchema,
  fileName,
  unknownTool,
  unknownModel,
  unknownBlock,
  unknownSubAgent,
  unknownFlag,
  unknownStatusEvent,
  platformBlockDeclared,
  blockOwnership,
  platformBlockOwner,
  subAgentCycle,
  recursionDepth,
  roleShape,
  toolName,
  toolNotWhitelisted,
  tooManyTools,
  tooManySubAgents,
  fanOutCap,
  modelCapability,
  statusEventUnrendered,
  unreachableAgent,
  relayStructuredAnswer,
  promptBudget,
  tokenBudget,
  blockBudget,
  descriptionBudget,
  historyBudget,
  templateUnknownVariable,
  dynamicInPrefix,
  volatileInPrefix,
  cohortExplosion,
  renderSize,
  suffixTemplate,
  unusedBlock,
  unusedTool,
  unusedModel,
  evalAgent,
  evalExpect,
  evalUnknownFlag,
  evalHistory,
  evalCoverage,
];

/** The rules that make an eval suite runnable: `agentc eval` runs them on suites named outside evals/ (eval-coverage is about the set of suites, not one). */
export const SUITE_RULES: readonly Rule[] = [evalAgent, evalExpect, evalUnknownFlag, evalHistory];
