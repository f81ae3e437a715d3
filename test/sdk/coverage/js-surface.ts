// The request surface of the JS SDK, read from its own type declarations with the
// TypeScript compiler: every public method of its clients and every field of
// every object a method takes, with the values of string-literal unions. The
// coverage table (docs/api/sdk-coverage.md) must have a row for each, so the
// next SDK release tells us what it added.
import ts from 'typescript';
import { declarationsProgram, jsDeclarationsFile } from '../js-declarations.ts';

/** One request field: the interface (or `method(param)` for an inline type) that declares it, and its name. */
export interface SurfaceField {
  /** `v1 ` before the name when only the v1 client (FirecrawlApp) reaches it; the bundler's `$1` suffixes are dropped. */
  owner: string;
  field: string;
  /** The string literals the field's type allows, when it is a union of them (e.g. proxy). */
  values: string[];
  /**
   * The request types the field's value (or its array's items) can be, by owner: one, or several told
   * apart by their literal `type` (formats, actions, parsers).
   */
  children: { type?: string; owner: string }[];
}

export interface SurfaceMethod {
  client: string;
  method: string;
}

export interface SdkSurface {
  methods: SurfaceMethod[];
  fields: SurfaceField[];
}

/** The SDK's clients whose methods call the API. */
const CLIENTS = ['FirecrawlClient', 'FirecrawlApp', 'ResearchClient'] as const;

/** Types whose insides are not request fields: a caller's schema, SDK-side objects. */
const OPAQUE = new Set(['ZodType', 'ZodTypeAny', 'ZodSchema', 'Blob', 'File', 'Buffer', 'Uint8Array', 'ArrayBuffer', 'Date', 'FormData', 'AbortSignal']);

/** Public helpers of the v1 client that take transport objects (axios headers, responses), not request fields. */
const TRANSPORT_METHODS = new Set(['prepareHeaders', 'postRequest', 'getRequest', 'deleteRequest', 'handleError', 'monitorJobStatus']);

const MAX_DEPTH = 8;

export function jsSdkSurface(file = jsDeclarationsFile()): SdkSurface {
  const program = declarationsProgram(file);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  const fields = new Map<string, SurfaceField>();
  const methods: SurfaceMethod[] = [];
  // Per client, so a type both clients take is known to be reached by each.
  let walked = new Set<ts.Type>();

  // A property of an inline object type is named after the property that holds it: ScrapeOptions.profile.name.
  const ownerName = (decl: ts.Node): string => {
    const nesting: string[] = [];
    for (let node: ts.Node | undefined = decl.parent; node; node = node.parent) {
      if (ts.isPropertySignature(node) && ts.isIdentifier(node.name)) nesting.unshift(node.name.text);
      const named = (n: string) => [n, ...nesting].join('.');
      if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node)) return named(node.name?.text ?? '(anonymous)');
      if (ts.isParameter(node) && ts.isIdentifier(node.name)) {
        const fn = node.parent;
        const fnName = (ts.isMethodDeclaration(fn) || ts.isFunctionDeclaration(fn)) && fn.name ? fn.name.getText() : '(function)';
        return named(`${fnName}(${node.name.text})`);
      }
    }
    return '(anonymous)';
  };

  // The literals a field takes, also as the items of an array (formats: ["markdown", ...]).
  const literalValues = (type: ts.Type): string[] => {
    const members = type.isUnion() ? type.types : [type];
    return members.flatMap((t) => {
      if (t.isStringLiteral()) return [t.value];
      if (checker.isArrayType(t)) return literalValues(checker.getTypeArguments(t as ts.TypeReference)[0]);
      return [];
    });
  };

  // The object types a value of this type can be (through unions and arrays), with their literal `type`.
  const objectMembers = (type: ts.Type): { type?: string; owner: string }[] => {
    const members = type.isUnion() ? type.types : [type];
    return members.flatMap((t) => {
      if (checker.isArrayType(t)) return objectMembers(checker.getTypeArguments(t as ts.TypeReference)[0]);
      if (!(t.flags & ts.TypeFlags.Object) || t.getCallSignatures().length > 0) return [];
      const own = checker.getPropertiesOfType(t).filter((p) => (p.valueDeclaration ?? p.declarations?.[0])?.getSourceFile() === source);
      const first = own[0]?.valueDeclaration ?? own[0]?.declarations?.[0];
      if (!first) return [];
      const typeProperty = own.find((p) => p.name === 'type');
      const literal = typeProperty && checker.getTypeOfSymbolAtLocation(typeProperty, first);
      return [{ owner: ownerName(first), ...(literal?.isStringLiteral() && { type: literal.value }) }];
    });
  };

  const reachedFrom = new Map<string, Set<string>>();
  let client = '';
  const walk = (type: ts.Type, depth: number): void => {
    if (depth > MAX_DEPTH || walked.has(type)) return;
    walked.add(type);
    if (type.isUnion() || type.isIntersection()) {
      for (const member of type.types) walk(member, depth);
      return;
    }
    const name = type.aliasSymbol?.name ?? type.getSymbol()?.name;
    if (name && OPAQUE.has(name)) return;
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      for (const element of checker.getTypeArguments(type as ts.TypeReference)) walk(element, depth + 1);
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return;
    for (const property of checker.getPropertiesOfType(type)) {
      const decl = property.valueDeclaration ?? property.declarations?.[0];
      // Types of other packages (axios, the DOM) that a parameter mentions are not the SDK's fields.
      if (!decl || decl.getSourceFile() !== source) continue;
      const propertyType = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, decl));
      const key = `${ownerName(decl)}.${property.name}`;
      reachedFrom.set(key, (reachedFrom.get(key) ?? new Set()).add(client));
      const values = literalValues(propertyType);
      const known = fields.get(key);
      const children = objectMembers(propertyType);
      if (known) known.values = [...new Set([...known.values, ...values])];
      else fields.set(key, { owner: ownerName(decl), field: property.name, values, children });
      walk(propertyType, depth + 1);
    }
    // Record<string, X>: the values' insides are fields too (e.g. headers are strings; nothing to add).
    const index = type.getStringIndexType();
    if (index) walk(index, depth + 1);
  };

  const visitClass = (node: ts.ClassDeclaration) => {
    const name = node.name?.text;
    if (!name || !(CLIENTS as readonly string[]).includes(name)) return;
    client = name;
    walked = new Set();
    for (const member of node.members) {
      if (!ts.isMethodDeclaration(member) && !ts.isGetAccessorDeclaration(member)) continue;
      const modifiers = ts.getCombinedModifierFlags(member);
      if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
      const method = member.name.getText();
      if (TRANSPORT_METHODS.has(method)) continue;
      if (!methods.some((m) => m.client === client && m.method === method)) methods.push({ client, method });
      for (const parameter of member.parameters) {
        walk(checker.getNonNullableType(checker.getTypeAtLocation(parameter)), 0);
      }
    }
  };
  ts.forEachChild(source, (node) => {
    if (ts.isClassDeclaration(node)) visitClass(node);
  });
  const finalName = new Map<string, string>();
  for (const [key, f] of fields) {
    const v1Only = [...reachedFrom.get(key)!].every((c) => c === 'FirecrawlApp');
    finalName.set(f.owner, `${v1Only ? 'v1 ' : ''}${f.owner.replace(/\$\d+/g, '')}`);
  }
  const named = [...fields.values()].map((f) => ({
    ...f,
    owner: finalName.get(f.owner)!,
    children: f.children.filter((c) => finalName.has(c.owner)).map((c) => ({ ...c, owner: finalName.get(c.owner)! })),
  }));
  return { methods, fields: named.sort((a, b) => `${a.owner}.${a.field}`.localeCompare(`${b.owner}.${b.field}`)) };
}
