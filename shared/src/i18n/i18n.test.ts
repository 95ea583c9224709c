import { describe, expect, it } from 'vitest';
import { en, es, i18nResources, ptBR } from './index.js';

type Tree = { [key: string]: string | Tree };
const keys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`),
  );

describe('i18n resources', () => {
  it('en and es have exactly the pt-BR keys', () => {
    const base = keys(ptBR as unknown as Tree).sort();
    expect(keys(en as unknown as Tree).sort()).toEqual(base);
    expect(keys(es as unknown as Tree).sort()).toEqual(base);
  });

  it('keeps the spec texts verbatim in pt-BR', () => {
    expect(ptBR.session.otherComputer).toBe('Sua conta foi acessada em outro computador.');
    expect(ptBR.topbar.subscriptionWarning_other).toBe('Sua assinatura vence em {{count}} dia(s)');
    expect(ptBR.tickets.accessDenied).toBe('Acesso não permitido');
    expect(ptBR.tickets.deleteConfirm).toBe('Deseja realmente excluir este registro?');
    expect(ptBR.forgot.sendEmail).toBe('Enviar Email');
    expect(ptBR.forgot.reset).toBe('Redefinir Senha');
    expect(ptBR.validation.passwordsDiffer).toBe('As senhas não correspondem');
    expect(ptBR.tickets.noQueue).toBe('SEM FILA');
  });

  it('exposes one translation namespace per language', () => {
    expect(Object.keys(i18nResources)).toEqual(['pt-BR', 'en', 'es']);
  });
});
