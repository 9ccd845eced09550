import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { ROOT } from './import-graph.ts';

/** The folders whose imports count as a use of an export of src/. */
const READERS = ['src', 'test', 'bench', 'scripts', 'web/src', 'bin'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(?:m?ts|tsx|mjs)$|^airkey$/.test(name) ? [path] : [];
  });

const hasExport = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

const declaredName = (node: ts.Statement): string[] => {
  if (ts.isVariableStatement(node))
    return node.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  const named =
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node);
  return named && node.name ? [node.name.text] : [];
};

/**
 * Every export of src/ that no file imports (src, tests, bench, scripts, the back office) and its
 * own file never names again: code nothing reaches. Parsed with the TypeScript compiler's parser,
 * no type check: an import of a name, a re-export, `export *` and `import('…')` count as uses.
 */
export function unusedExports(): string[] {
  const exported = new Map<string, string[]>();
  const used = new Map<string, Set<string>>();
  const use = (file: string, name: string) => used.set(file, (used.get(file) ?? new Set()).add(name));
  const target = (from: string, spec: string) =>
    spec === '@contracts' ? `${ROOT}src/contracts.ts` : spec.startsWith('.') ? resolve(dirname(from), spec) : undefined;
  for (const file of READERS.flatMap((dir) => sourceFiles(`${ROOT}${dir}`))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const names: string[] = [];
    for (const statement of source.statements) {
      if (hasExport(statement)) names.push(...declaredName(statement));
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      const from = specifier && ts.isStringLiteral(specifier) ? target(file, specifier.text) : undefined;
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (!from || !clause) continue;
        if (clause.name) use(from, 'default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(from, '*');
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) use(from, (element.propertyName ?? element.name).text);
        continue;
      }
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          names.push(element.name.text);
          if (from) use(from, (element.propertyName ?? element.name).text);
        }
      } else if (from) use(from, '*');
    }
    source.forEachChild(function visit(node): void {
      const dynamic =
        ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
      if (dynamic && ts.isStringLiteral(dynamic)) {
        const from = target(file, dynamic.text);
        if (from) use(from, '*');
      }
      node.forEachChild(visit);
    });
    exported.set(file, names);
  }
  return [...exported].flatMap(([file, names]) => {
    if (!file.startsWith(`${ROOT}src/`) || used.get(file)?.has('*')) return [];
    const text = readFileSync(file, 'utf8');
    return names
      .filter((name) => !used.get(file)?.has(name))
      .filter((name) => (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length < 2)
      .map((name) => `${relative(`${ROOT}src`, file)}: ${name}`);
  });
}
