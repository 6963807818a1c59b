/**
 * The words of the mails Tablo sends itself, in each language of the web app (see
 * src/lib/mail-language.ts for how a mail's language is chosen). Values are filled in by the
 * functions; the HTML body escapes them.
 */
import type { MailLanguage } from '../lib/mail-language';

export interface MailWords {
  someone: string;
  /** Role names as the web app shows them in this language. */
  roles: Record<string, string>;
  invited: (p: { who: string; project: string; roles: string }) => string;
  inviteSubject: (app: string, project: string) => string;
  inviteExpiry: string;
  inviteSignUp: string;
  inviteButton: string;
  added: (p: { who: string; project: string; roles: string }) => string;
  addedSubject: (app: string, project: string) => string;
  addedOpen: string;
  addedButton: string;
  reset: string;
  resetSubject: (app: string) => string;
  resetExpiry: string;
  resetHere: string;
  resetButton: string;
  test: string;
  testSubject: (app: string) => string;
  /** The chat plugins' Test message. */
  chatTest: string;
}

export const MAIL_WORDS: Record<MailLanguage, MailWords> = {
  en: {
    someone: 'Someone',
    roles: { owner: 'owner', creator: 'creator', editor: 'editor', commenter: 'commenter', viewer: 'viewer', guest: 'guest' },
    invited: (p) => `${p.who} invited you to the project '${p.project}' as ${p.roles}.`,
    inviteSubject: (app, project) => `${app}: you are invited to '${project}'`,
    inviteExpiry: 'The link works for 24 hours.',
    inviteSignUp: 'Sign up here:',
    inviteButton: 'Accept the invite',
    added: (p) => `${p.who} added you to the project '${p.project}' as ${p.roles}.`,
    addedSubject: (app, project) => `${app}: you were added to '${project}'`,
    addedOpen: 'Open it here:',
    addedButton: 'Open the project',
    reset: 'Someone asked to reset the password of your account. If it was not you, ignore this mail.',
    resetSubject: (app) => `${app}: reset your password`,
    resetExpiry: 'The link works for one hour.',
    resetHere: 'Reset it here:',
    resetButton: 'Reset the password',
    test: 'This is a test mail from the App Store: the SMTP plugin works.',
    testSubject: (app) => `${app}: SMTP test`,
    chatTest: 'Tablo: a test message from the App Store',
  },
  zh_CN: {
    someone: '有人',
    roles: { owner: '所有者', creator: '创建者', editor: '编辑者', commenter: '评论者', viewer: '查看者', guest: '访客' },
    invited: (p) => `${p.who} 邀请您以 ${p.roles} 身份加入项目“${p.project}”。`,
    inviteSubject: (app, project) => `${app}：您受邀加入“${project}”`,
    inviteExpiry: '该链接在 24 小时内有效。',
    inviteSignUp: '在此注册：',
    inviteButton: '接受邀请',
    added: (p) => `${p.who} 已将您以 ${p.roles} 身份添加到项目“${p.project}”。`,
    addedSubject: (app, project) => `${app}：您已被添加到“${project}”`,
    addedOpen: '在此打开：',
    addedButton: '打开项目',
    reset: '有人请求重置您账户的密码。如果不是您本人，请忽略此邮件。',
    resetSubject: (app) => `${app}：重置您的密码`,
    resetExpiry: '该链接在一小时内有效。',
    resetHere: '在此重置：',
    resetButton: '重置密码',
    test: '这是一封来自应用商店的测试邮件：SMTP 插件工作正常。',
    testSubject: (app) => `${app}：SMTP 测试`,
    chatTest: 'Tablo：来自应用商店的测试消息',
  },
  fr: {
    someone: "Quelqu'un",
    roles: { owner: 'propriétaire', creator: 'créateur', editor: 'éditeur', commenter: 'commentateur', viewer: 'lecteur', guest: 'invité' },
    invited: (p) => `${p.who} vous a invité au projet « ${p.project} » en tant que ${p.roles}.`,
    inviteSubject: (app, project) => `${app} : vous êtes invité à « ${project} »`,
    inviteExpiry: 'Le lien fonctionne pendant 24 heures.',
    inviteSignUp: 'Inscrivez-vous ici :',
    inviteButton: "Accepter l'invitation",
    added: (p) => `${p.who} vous a ajouté au projet « ${p.project} » en tant que ${p.roles}.`,
    addedSubject: (app, project) => `${app} : vous avez été ajouté à « ${project} »`,
    addedOpen: 'Ouvrez-le ici :',
    addedButton: 'Ouvrir le projet',
    reset: "Quelqu'un a demandé la réinitialisation du mot de passe de votre compte. Si ce n'était pas vous, ignorez ce message.",
    resetSubject: (app) => `${app} : réinitialisez votre mot de passe`,
    resetExpiry: 'Le lien fonctionne pendant une heure.',
    resetHere: 'Réinitialisez-le ici :',
    resetButton: 'Réinitialiser le mot de passe',
    test: "Ceci est un message de test de l'App Store : le plugin SMTP fonctionne.",
    testSubject: (app) => `${app} : test SMTP`,
    chatTest: "Tablo : un message de test de l'App Store",
  },
  es: {
    someone: 'Alguien',
    roles: { owner: 'propietario', creator: 'creador', editor: 'editor', commenter: 'comentarista', viewer: 'lector', guest: 'invitado' },
    invited: (p) => `${p.who} le ha invitado al proyecto «${p.project}» como ${p.roles}.`,
    inviteSubject: (app, project) => `${app}: le han invitado a «${project}»`,
    inviteExpiry: 'El enlace funciona durante 24 horas.',
    inviteSignUp: 'Regístrese aquí:',
    inviteButton: 'Aceptar la invitación',
    added: (p) => `${p.who} le ha añadido al proyecto «${p.project}» como ${p.roles}.`,
    addedSubject: (app, project) => `${app}: le han añadido a «${project}»`,
    addedOpen: 'Ábralo aquí:',
    addedButton: 'Abrir el proyecto',
    reset: 'Alguien ha pedido restablecer la contraseña de su cuenta. Si no fue usted, ignore este correo.',
    resetSubject: (app) => `${app}: restablezca su contraseña`,
    resetExpiry: 'El enlace funciona durante una hora.',
    resetHere: 'Restablézcala aquí:',
    resetButton: 'Restablecer la contraseña',
    test: 'Este es un correo de prueba de la App Store: el plugin SMTP funciona.',
    testSubject: (app) => `${app}: prueba de SMTP`,
    chatTest: 'Tablo: un mensaje de prueba de la App Store',
  },
  pt: {
    someone: 'Alguém',
    roles: { owner: 'proprietário', creator: 'criador', editor: 'editor', commenter: 'comentador', viewer: 'leitor', guest: 'convidado' },
    invited: (p) => `${p.who} convidou você para o projeto «${p.project}» como ${p.roles}.`,
    inviteSubject: (app, project) => `${app}: você foi convidado para «${project}»`,
    inviteExpiry: 'O link funciona durante 24 horas.',
    inviteSignUp: 'Cadastre-se aqui:',
    inviteButton: 'Aceitar o convite',
    added: (p) => `${p.who} adicionou você ao projeto «${p.project}» como ${p.roles}.`,
    addedSubject: (app, project) => `${app}: você foi adicionado a «${project}»`,
    addedOpen: 'Abra-o aqui:',
    addedButton: 'Abrir o projeto',
    reset: 'Alguém pediu para redefinir a senha da sua conta. Se não foi você, ignore este e-mail.',
    resetSubject: (app) => `${app}: redefina sua senha`,
    resetExpiry: 'O link funciona durante uma hora.',
    resetHere: 'Redefina-a aqui:',
    resetButton: 'Redefinir a senha',
    test: 'Este é um e-mail de teste da App Store: o plugin SMTP funciona.',
    testSubject: (app) => `${app}: teste de SMTP`,
    chatTest: 'Tablo: uma mensagem de teste da App Store',
  },
};
