/**
 * OpenAI Agents SDK for TypeScript, read statically with ts-morph (loaded only
 * here, lazily); the code is never executed. Recognized: `new Agent({…})` and
 * `Agent.create({…})`; `name`, `instructions` (string, template literal whose
 * parts resolve to constants, `[…].join(sep)`, `+` concatenation, a const),
 * `handoffDescription`, `model`, `tools` (`tool({…})` with zod or JSON Schema
 * `parameters`, `agent.asTool({…})`, hosted tools as placeholders) and
 * `handoffs` (agents or `handoff(agent, …)`). Invariant: anything that cannot
 * be resolved statically is reported with its file and property, never guessed.
 */
import type { Expression, Node as TsNode, ObjectLiteralExpression, Project, SourceFile } from 'ts-morph';
import { collectFiles } from '../read.js';
import { emptySource, takeMaxTokens, type ImportSource, type JsonSchema } from '../types.js';
import { literalValue, stringLiteral, zodToJsonSchema, type ZodContext } from './zod.js';

type TsMorph = typeof import('ts-morph');

const AGENT_DROPPED: Record<string, string> = {
  inputGuardrails: 'guardrails run code; agentc never executes user code',
  outputGuardrails: 'guardrails run code; agentc never executes user code',
  toolUseBehavior: 'the runtime decides when a turn ends; no equivalent',
  resetToolChoice: 'a runtime setting',
  mcpServers: 'MCP server wiring is deployment configuration; declare the tools as contracts',
  prompt: "a stored prompt reference on OpenAI's platform cannot be read statically",
};

export async function importOpenAIAgentsTs(cwd: string, paths: readonly string[]): Promise<ImportSource> {
  const src = emptySource();
  const inputs = collectFiles(cwd, paths, (n) => /\.(m|c)?[jt]sx?$/.test(n) && !n.endsWith('.d.ts'), src.problems);
  if (inputs.length === 0) return src;
  const tm: TsMorph = await import('ts-morph');
  const project: Project = new tm.Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: {
      allowJs: true,
      noEmit: true,
      target: tm.ts.ScriptTarget.ES2022,
      module: tm.ts.ModuleKind.NodeNext,
      moduleResolution: tm.ts.ModuleResolutionKind.NodeNext,
    },
  });
  const shownOf = new Map<SourceFile, string>();
  for (const f of inputs) {
    try {
      shownOf.set(project.addSourceFileAtPath(f.abs), f.shown);
      src.files.push(f.shown);
    } catch (e) {
      src.problems.push({ file: f.shown, message: `cannot read the file (${e instanceof Error ? e.message : String(e)})` });
    }
  }
  const { Node } = tm;
  const fileOf = (n: TsNode) => shownOf.get(n.getSourceFile()) ?? n.getSourceFile().getFilePath();

  /** Identifier → the initializer of the const it names, when that const is in an imported file. */
  const resolve = (node: TsNode): Expression | undefined => {
    let sym = node.getSymbol();
    if (sym?.isAlias()) sym = sym.getAliasedSymbol();
    for (const decl of sym?.getDeclarations() ?? []) {
      if (!shownOf.has(decl.getSourceFile())) continue;
      if (Node.isVariableDeclaration(decl)) {
        const list = decl.getVariableStatement();
        if (list && list.getDeclarationKind() !== tm.VariableDeclarationKind.Const) return undefined;
        return decl.getInitializer();
      }
    }
    return undefined;
  };
  const ctx: ZodContext = { tm, resolve };
  const follow = (e: Expression | undefined): Expression | undefined => {
    let cur = e;
    for (let i = 0; cur && i < 20; i++) {
      if (Node.isParenthesizedExpression(cur) || Node.isAsExpression(cur) || Node.isSatisfiesExpression(cur)) cur = cur.getExpression();
      else if (Node.isIdentifier(cur)) cur = resolve(cur);
      else return cur;
    }
    return cur;
  };

  // Pass 1: every agent definition, keyed by its node.
  const isAgentCall = (n: TsNode): n is Expression => {
    if (Node.isNewExpression(n)) return /^(\w+\.)?Agent$/.test(n.getExpression().getText());
    if (Node.isCallExpression(n)) return /^(\w+\.)?Agent\.create$/.test(n.getExpression().getText());
    return false;
  };
  const agentNodes: { node: Expression; options: ObjectLiteralExpression | undefined; file: string }[] = [];
  for (const sf of shownOf.keys()) {
    sf.forEachDescendant((n) => {
      if (!isAgentCall(n)) return;
      const arg = (n as unknown as { getArguments(): TsNode[] }).getArguments()[0];
      const options = arg && Node.isObjectLiteralExpression(arg) ? arg : undefined;
      agentNodes.push({ node: n, options, file: fileOf(n) });
    });
  }
  const keyOf = new Map<TsNode, string>();
  const nameOf = new Map<TsNode, string>();
  const prop = (o: ObjectLiteralExpression | undefined, name: string): Expression | undefined => {
    const p = o?.getProperty(name);
    if (!p) return undefined;
    if (Node.isPropertyAssignment(p)) return p.getInitializer();
    if (Node.isShorthandPropertyAssignment(p)) return p.getNameNode();
    return undefined;
  };
  for (const a of agentNodes) {
    const varName = a.node.getParentIfKind(tm.SyntaxKind.VariableDeclaration)?.getName();
    const name = stringLiteral(prop(a.options, 'name'), ctx) ?? varName ?? `agent_line_${a.node.getStartLineNumber()}`;
    if (!a.options)
      src.dropped.push({
        file: a.file,
        field: `line ${a.node.getStartLineNumber()}`,
        reason: 'the Agent options are not an object literal and cannot be read statically',
      });
    else if (stringLiteral(prop(a.options, 'name'), ctx) === undefined)
      src.dropped.push({ file: a.file, field: `${name}.name`, reason: `not a string literal; used "${name}"` });
    let key = name;
    for (let n = 2; src.agents.some((x) => x.key === key) || [...keyOf.values()].includes(key); n++) key = `${a.file}#${name}#${n}`;
    keyOf.set(a.node, key);
    nameOf.set(a.node, name);
  }
  const agentKey = (e: Expression | undefined): string | undefined => {
    const t = follow(e);
    return t ? keyOf.get(t) : undefined;
  };

  const toolCalls = new Map<TsNode, string>();
  // Pass 2: fields. asTool({ toolDescription }) describes an agent that has no handoffDescription.
  const pendingDescriptions = new Map<string, string>();
  for (const a of agentNodes) {
    const key = keyOf.get(a.node)!;
    const name = nameOf.get(a.node)!;
    const at = (f: string) => `${name}.${f}`;
    const drop = (field: string, reason: string) => src.dropped.push({ file: a.file, field: at(field), reason });
    const description = stringLiteral(prop(a.options, 'handoffDescription'), ctx);
    if (prop(a.options, 'handoffDescription') && description === undefined) drop('handoffDescription', 'not a string that can be resolved statically');

    let instructions: string | undefined;
    const ins = prop(a.options, 'instructions');
    if (ins) {
      const r = staticString(ins, tm, ctx, follow);
      if (typeof r === 'string') instructions = r;
      else drop('instructions', r.why);
    }
    let model: string | undefined;
    const m = prop(a.options, 'model');
    if (m) {
      model = stringLiteral(m, ctx);
      if (model === undefined) drop('model', 'not a model name string (a Model object or a value computed at run time)');
    }
    let maxOutputTokens: number | undefined;
    const ms = follow(prop(a.options, 'modelSettings'));
    if (ms) {
      const v = Node.isObjectLiteralExpression(ms) ? jsonValue(ms, tm, ctx) : undefined;
      if (v === undefined) drop('modelSettings', 'not an object of literals that can be read statically');
      else maxOutputTokens = takeMaxTokens(src, a.file, at('modelSettings'), v, 'maxTokens');
    }
    let output: JsonSchema | undefined;
    const outExpr = prop(a.options, 'outputType');
    if (outExpr) {
      const z = zodToJsonSchema(outExpr, ctx);
      if (z.schema && z.schema.type === 'object') output = z.schema;
      else
        drop(
          'outputType',
          z.unsupported.length > 0
            ? `unsupported zod construct(s): ${z.unsupported.join('; ')}`
            : "not a zod object schema (agentc's `output` is an object schema)",
        );
    }
    const tools: string[] = [];
    const subAgents: string[] = [];
    const toolsExpr = follow(prop(a.options, 'tools'));
    if (toolsExpr && !Node.isArrayLiteralExpression(toolsExpr)) drop('tools', 'not an array literal');
    for (const [i, el] of (toolsExpr && Node.isArrayLiteralExpression(toolsExpr) ? toolsExpr.getElements() : []).entries()) {
      const e = follow(el as Expression);
      if (e && Node.isCallExpression(e)) {
        const callee = e.getExpression();
        if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'asTool') {
          const sub = agentKey(callee.getExpression());
          if (!sub) {
            drop(`tools[${i}]`, `"${callee.getExpression().getText()}.asTool" names an agent that cannot be followed statically`);
            continue;
          }
          if (!subAgents.includes(sub)) subAgents.push(sub);
          const opts = e.getArguments()[0];
          if (opts && Node.isObjectLiteralExpression(opts)) {
            const td = stringLiteral(prop(opts, 'toolDescription'), ctx);
            const target = agentNodes.find((x) => keyOf.get(x.node) === sub);
            if (td && target && stringLiteral(prop(target.options, 'handoffDescription'), ctx) === undefined) pendingDescriptions.set(sub, td);
            for (const p of opts.getProperties()) {
              const pn = Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName() : p.getText();
              if (pn === 'toolDescription' && td) continue;
              drop(
                `tools[${i}].asTool.${pn}`,
                pn === 'toolName'
                  ? "agentc names a sub-agent's tool <toolPrefix><id> (ask_<id>)"
                  : pn === 'toolDescription'
                    ? 'the sub-agent already has a description'
                    : 'a run-time option of the agent tool with no agentc equivalent',
              );
            }
          }
          continue;
        }
        if (/^(\w+\.)?tool$/.test(callee.getText())) {
          const t = toolCalls.get(e) ?? readTool(e, a.file, src, tm, ctx, prop, follow);
          if (t) toolCalls.set(e, t);
          if (t) tools.push(t);
          continue;
        }
        if (/Tool$/.test(callee.getText())) {
          const hosted = callee
            .getText()
            .replace(/Tool$/, '')
            .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
            .toLowerCase();
          tools.push(hosted);
          if (!src.tools.some((t) => t.name === hosted))
            src.tools.push({ name: hosted, description: `OpenAI hosted tool ${callee.getText()}()`, file: a.file });
          drop(`tools[${i}]`, `${callee.getText()}() is a tool hosted by the provider; written as a placeholder contract "${hosted}"`);
          continue;
        }
      }
      drop(`tools[${i}]`, `"${el.getText().slice(0, 60)}" cannot be resolved statically to tool() or agent.asTool()`);
    }
    const hExpr = follow(prop(a.options, 'handoffs'));
    if (hExpr && !Node.isArrayLiteralExpression(hExpr)) drop('handoffs', 'not an array literal');
    let handoffCount = 0;
    for (const [i, el] of (hExpr && Node.isArrayLiteralExpression(hExpr) ? hExpr.getElements() : []).entries()) {
      let target: Expression | undefined = el as Expression;
      const e = follow(target);
      if (e && Node.isCallExpression(e) && /^(\w+\.)?handoff$/.test(e.getExpression().getText())) {
        target = e.getArguments()[0] as Expression | undefined;
        if (e.getArguments().length > 1)
          drop(`handoffs[${i}]`, 'handoff() options (onHandoff, inputType, toolNameOverride, inputFilter…) run code or rename the tool; not converted');
      }
      const sub = agentKey(target);
      if (!sub) {
        drop(`handoffs[${i}]`, `"${el.getText().slice(0, 60)}" cannot be followed statically to an Agent`);
        continue;
      }
      handoffCount++;
      if (!subAgents.includes(sub)) subAgents.push(sub);
    }
    if (handoffCount > 0)
      drop('handoffs', 'a handoff passes the conversation on; agentc calls a sub-agent as a tool and gets its answer back (imported as sub_agents)');
    for (const p of a.options?.getProperties() ?? []) {
      const pn = Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) || Node.isMethodDeclaration(p) ? p.getName() : p.getText().slice(0, 40);
      if (['name', 'instructions', 'handoffDescription', 'model', 'tools', 'handoffs', 'outputType', 'modelSettings'].includes(pn)) continue;
      drop(pn, AGENT_DROPPED[pn] ?? 'an Agent option with no agentc equivalent');
    }
    src.agents.push({
      key,
      name,
      file: a.file,
      description,
      instructions,
      model,
      tools,
      subAgents,
      ...(output ? { output } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    });
  }
  for (const [k, d] of pendingDescriptions) {
    const agent = src.agents.find((x) => x.key === k);
    if (agent && agent.description === undefined) agent.description = d;
  }
  return src;
}

type PropFn = (o: ObjectLiteralExpression | undefined, name: string) => Expression | undefined;

function readTool(
  call: Expression,
  file: string,
  src: ImportSource,
  tm: TsMorph,
  ctx: ZodContext,
  prop: PropFn,
  follow: (e: Expression | undefined) => Expression | undefined,
): string | undefined {
  const { Node } = tm;
  if (!Node.isCallExpression(call)) return undefined;
  const opts = call.getArguments()[0];
  const varName = call.getParentIfKind(tm.SyntaxKind.VariableDeclaration)?.getName();
  if (!opts || !Node.isObjectLiteralExpression(opts)) {
    src.dropped.push({ file, field: `tool at line ${call.getStartLineNumber()}`, reason: 'tool() options are not an object literal' });
    return undefined;
  }
  const name = stringLiteral(prop(opts, 'name'), ctx) ?? varName ?? `tool_line_${call.getStartLineNumber()}`;
  const at = (f: string) => `tool ${name}.${f}`;
  const first = src.tools.find((t) => t.name === name);
  if (first) {
    src.dropped.push({
      file,
      field: `tool ${name}`,
      reason: `a second tool() named "${name}" (line ${call.getStartLineNumber()}); the definition in ${first.file} was kept`,
    });
    return name;
  }
  const description = stringLiteral(prop(opts, 'description'), ctx);
  let parameters: JsonSchema | undefined;
  const p = follow(prop(opts, 'parameters'));
  if (p && Node.isObjectLiteralExpression(p)) {
    const v = jsonValue(p, tm, ctx);
    if (v !== undefined && typeof v === 'object' && v !== null && !Array.isArray(v)) parameters = v as JsonSchema;
    else src.dropped.push({ file, field: at('parameters'), reason: 'a JSON Schema object that is not made of literals; written as a placeholder' });
  } else if (p) {
    const z = zodToJsonSchema(p, ctx);
    if (z.schema) parameters = z.schema;
    else
      src.dropped.push({
        file,
        field: at('parameters'),
        reason: `unsupported zod construct(s): ${z.unsupported.join('; ')}; written as a placeholder contract`,
      });
  } else {
    src.dropped.push({ file, field: at('parameters'), reason: 'no parameters; written as a placeholder contract' });
  }
  for (const q of opts.getProperties()) {
    const pn = Node.isPropertyAssignment(q) || Node.isShorthandPropertyAssignment(q) || Node.isMethodDeclaration(q) ? q.getName() : q.getText().slice(0, 40);
    if (['name', 'description', 'parameters'].includes(pn)) continue;
    const reason =
      pn === 'execute'
        ? 'the implementation: agentc contracts describe arguments; implement it in ToolHandlers'
        : pn === 'strict'
          ? 'agentc always emits strict OpenAI function tools'
          : pn.endsWith('Guardrails')
            ? 'guardrails run code; agentc never executes user code'
            : 'a tool() option with no agentc equivalent';
    src.dropped.push({ file, field: at(pn), reason });
  }
  src.tools.push({ name, description, parameters, file });
  return name;
}

type StaticString = string | { why: string };

/** A string the expression always evaluates to, or why it cannot be known statically. */
function staticString(e: Expression, tm: TsMorph, ctx: ZodContext, follow: (e: Expression | undefined) => Expression | undefined): StaticString {
  const { Node } = tm;
  const t = follow(e);
  if (!t) return { why: `"${e.getText().slice(0, 60)}" is not a const this import can follow (another module, or a let/var)` };
  if (Node.isStringLiteral(t) || Node.isNoSubstitutionTemplateLiteral(t)) return t.getLiteralValue();
  if (Node.isArrowFunction(t) || Node.isFunctionExpression(t)) return { why: 'a function computed at run time; agentc prompts are static text' };
  if (Node.isTemplateExpression(t)) {
    let out = t.getHead().getLiteralText();
    for (const span of t.getTemplateSpans()) {
      const v = staticString(span.getExpression(), tm, ctx, follow);
      if (typeof v !== 'string') {
        const lit = literalValue(span.getExpression(), ctx);
        if (lit === undefined || lit === null) return { why: `the template part \${${span.getExpression().getText()}} cannot be resolved statically` };
        out += String(lit);
      } else out += v;
      out += span.getLiteral().getLiteralText();
    }
    return out;
  }
  if (Node.isBinaryExpression(t) && t.getOperatorToken().getKind() === tm.SyntaxKind.PlusToken) {
    const l = staticString(t.getLeft(), tm, ctx, follow);
    if (typeof l !== 'string') return l;
    const r = staticString(t.getRight(), tm, ctx, follow);
    return typeof r === 'string' ? l + r : r;
  }
  if (Node.isCallExpression(t)) {
    const callee = t.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'join') {
      const arr = follow(callee.getExpression());
      const sepArg = t.getArguments()[0] as Expression | undefined;
      const sep = sepArg === undefined ? ',' : staticString(sepArg, tm, ctx, follow);
      if (arr && Node.isArrayLiteralExpression(arr) && typeof sep === 'string') {
        const parts: string[] = [];
        for (const el of arr.getElements()) {
          const v = staticString(el as Expression, tm, ctx, follow);
          if (typeof v !== 'string') return v;
          parts.push(v);
        }
        return parts.join(sep);
      }
    }
  }
  return { why: `"${t.getText().replace(/\s+/g, ' ').slice(0, 60)}" is computed at run time` };
}

/** An object/array literal made only of literals, as JSON; undefined otherwise. */
function jsonValue(e: TsNode, tm: TsMorph, ctx: ZodContext): unknown {
  const { Node } = tm;
  if (Node.isObjectLiteralExpression(e)) {
    const out: Record<string, unknown> = {};
    for (const p of e.getProperties()) {
      if (!Node.isPropertyAssignment(p)) return undefined;
      const nameNode = p.getNameNode();
      const key = Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : Node.isIdentifier(nameNode) ? nameNode.getText() : undefined;
      const init = p.getInitializer();
      if (key === undefined || !init) return undefined;
      const v = jsonValue(init, tm, ctx);
      if (v === undefined) return undefined;
      out[key] = v;
    }
    return out;
  }
  if (Node.isArrayLiteralExpression(e)) {
    const out: unknown[] = [];
    for (const el of e.getElements()) {
      const v = jsonValue(el, tm, ctx);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  if (Node.isAsExpression(e)) return jsonValue(e.getExpression(), tm, ctx);
  return literalValue(e, ctx);
}
