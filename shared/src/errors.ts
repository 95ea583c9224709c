/**
 * The ERR_* catalogue: every error the server answers with, its HTTP status and its texts.
 * The server sends `{ error: code, message }` (message in pt-BR); clients translate by code.
 */
export type Lang = 'pt-BR' | 'en' | 'es';

interface ErrorEntry {
  status: number;
  text: Record<Lang, string>;
}

const entry = (status: number, ptBR: string, en: string, es: string): ErrorEntry => ({
  status,
  text: { 'pt-BR': ptBR, en, es },
});

export const ERRORS = {
  // core §8
  ERR_NO_OTHER_WHATSAPP: entry(
    400,
    'Deve haver pelo menos uma conexão padrão.',
    'There must be at least one default connection.',
    'Debe haber al menos una conexión predeterminada.',
  ),
  ERR_NO_DEF_WAPP_FOUND: entry(
    404,
    'Nenhuma conexão padrão encontrada. Verifique a página de conexões.',
    'No default connection found. Check the connections page.',
    'No se encontró una conexión predeterminada. Revise la página de conexiones.',
  ),
  ERR_WAPP_NOT_INITIALIZED: entry(
    409,
    'Esta sessão do WhatsApp não foi inicializada. Verifique a página de conexões.',
    'This WhatsApp session is not initialized. Check the connections page.',
    'Esta sesión de WhatsApp no está iniciada. Revise la página de conexiones.',
  ),
  // Reserved: named by core §8, not answered by any route yet.
  ERR_WAPP_CHECK_CONTACT: entry(
    502,
    'Não foi possível verificar o contato no WhatsApp. Verifique a página de conexões.',
    'Could not check the WhatsApp contact. Check the connections page.',
    'No se pudo verificar el contacto en WhatsApp. Revise la página de conexiones.',
  ),
  ERR_WAPP_INVALID_CONTACT: entry(
    400,
    'Este não é um número de WhatsApp válido.',
    'This is not a valid WhatsApp number.',
    'Este no es un número de WhatsApp válido.',
  ),
  ERR_WAPP_DOWNLOAD_MEDIA: entry(
    502,
    'Não foi possível baixar a mídia do WhatsApp.',
    'Could not download the media from WhatsApp.',
    'No se pudo descargar el contenido de WhatsApp.',
  ),
  ERR_INVALID_CREDENTIALS: entry(
    401,
    'Erro de autenticação. Por favor, tente novamente.',
    'Authentication error. Please try again.',
    'Error de autenticación. Por favor, inténtelo de nuevo.',
  ),
  ERR_SENDING_WAPP_MSG: entry(
    502,
    'Erro ao enviar mensagem do WhatsApp.',
    'Error sending the WhatsApp message.',
    'Error al enviar el mensaje de WhatsApp.',
  ),
  // Reserved: named by core §8, not answered by any route yet.
  ERR_DELETE_WAPP_MSG: entry(
    502,
    'Não foi possível excluir a mensagem do WhatsApp.',
    'Could not delete the WhatsApp message.',
    'No se pudo eliminar el mensaje de WhatsApp.',
  ),
  ERR_OTHER_OPEN_TICKET: entry(
    409,
    'Já existe um tíquete aberto para este contato.',
    'An open ticket already exists for this contact.',
    'Ya existe un ticket abierto para este contacto.',
  ),
  // The socket handshake stated another protocol version (shared/src/events PROTOCOL_VERSION).
  ERR_PROTOCOL_VERSION: entry(
    426,
    'Esta versão do aplicativo não é compatível com o servidor. Atualize o aplicativo.',
    'This version of the app is not compatible with the server. Update the app.',
    'Esta versión de la aplicación no es compatible con el servidor. Actualice la aplicación.',
  ),
  ERR_SESSION_EXPIRED: entry(
    401,
    'Sessão expirada. Por favor entre.',
    'Session expired. Please sign in.',
    'Sesión expirada. Por favor inicie sesión.',
  ),
  // Reserved: named by core §8, not answered by any route yet.
  ERR_USER_CREATION_DISABLED: entry(
    403,
    'A criação do usuário foi desabilitada pelo administrador.',
    'User creation was disabled by the administrator.',
    'La creación de usuarios fue deshabilitada por el administrador.',
  ),
  ERR_NO_PERMISSION: entry(
    403,
    'Você não tem permissão para acessar este recurso.',
    'You do not have permission to access this resource.',
    'No tiene permiso para acceder a este recurso.',
  ),
  ERR_DUPLICATED_CONTACT: entry(
    409,
    'Já existe um contato com este número.',
    'A contact with this number already exists.',
    'Ya existe un contacto con este número.',
  ),
  ERR_NO_SETTING_FOUND: entry(
    404,
    'Nenhuma configuração encontrada com este ID.',
    'No setting found with this ID.',
    'No se encontró ninguna configuración con este ID.',
  ),
  ERR_NO_CONTACT_FOUND: entry(
    404,
    'Nenhum contato encontrado com este ID.',
    'No contact found with this ID.',
    'No se encontró ningún contacto con este ID.',
  ),
  ERR_NO_TICKET_FOUND: entry(
    404,
    'Nenhum tíquete encontrado com este ID.',
    'No ticket found with this ID.',
    'No se encontró ningún ticket con este ID.',
  ),
  ERR_NO_USER_FOUND: entry(
    404,
    'Nenhum usuário encontrado com este ID.',
    'No user found with this ID.',
    'No se encontró ningún usuario con este ID.',
  ),
  ERR_NO_WAPP_FOUND: entry(
    404,
    'Nenhum WhatsApp encontrado com este ID.',
    'No WhatsApp connection found with this ID.',
    'No se encontró ninguna conexión de WhatsApp con este ID.',
  ),
  ERR_CREATING_MESSAGE: entry(
    500,
    'Erro ao criar mensagem no banco de dados.',
    'Error creating the message in the database.',
    'Error al crear el mensaje en la base de datos.',
  ),
  ERR_CREATING_TICKET: entry(
    500,
    'Erro ao criar tíquete no banco de dados.',
    'Error creating the ticket in the database.',
    'Error al crear el ticket en la base de datos.',
  ),
  // Reserved: named by core §8, not answered by any route yet.
  ERR_FETCH_WAPP_MSG: entry(
    404,
    'Erro ao buscar a mensagem no WhatsApp, talvez ela seja muito antiga.',
    'Error fetching the WhatsApp message; it may be too old.',
    'Error al buscar el mensaje en WhatsApp; puede ser demasiado antiguo.',
  ),
  ERR_QUEUE_COLOR_ALREADY_EXISTS: entry(
    409,
    'Esta cor já está em uso, escolha outra.',
    'This colour is already in use; pick another.',
    'Este color ya está en uso; elija otro.',
  ),
  ERR_WAPP_GREETING_REQUIRED: entry(
    400,
    'A mensagem de saudação é obrigatória quando há mais de uma fila.',
    'A greeting message is required when there is more than one queue.',
    'El mensaje de saludo es obligatorio cuando hay más de una cola.',
  ),
  // added by Atende (docs/decisions.md)
  ERR_VALIDATION: entry(400, 'Dados inválidos.', 'Invalid data.', 'Datos inválidos.'),
  ERR_MALFORMED_JSON: entry(
    400,
    'O corpo da requisição não é um JSON válido.',
    'The request body is not valid JSON.',
    'El cuerpo de la solicitud no es un JSON válido.',
  ),
  ERR_PAYLOAD_TOO_LARGE: entry(
    413,
    'O corpo da requisição é grande demais.',
    'The request body is too large.',
    'El cuerpo de la solicitud es demasiado grande.',
  ),
  ERR_NOT_FOUND: entry(
    404,
    'Recurso não encontrado.',
    'Resource not found.',
    'Recurso no encontrado.',
  ),
  ERR_SUBSCRIPTION_EXPIRED: entry(
    403,
    'Opss! Sua assinatura venceu em {{date}}. Entre em contato com o suporte para mais informações!',
    'Oops! Your subscription expired on {{date}}. Please contact support for more information!',
    '¡Ups! Su suscripción venció el {{date}}. ¡Póngase en contacto con soporte para más información!',
  ),
  ERR_COMPANY_INACTIVE: entry(
    403,
    'Esta empresa está desativada. Entre em contato com o suporte.',
    'This company is deactivated. Please contact support.',
    'Esta empresa está desactivada. Póngase en contacto con soporte.',
  ),
  ERR_TOO_MANY_REQUESTS: entry(
    429,
    'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
    'Too many attempts. Wait a few minutes and try again.',
    'Demasiados intentos. Espere unos minutos e inténtelo de nuevo.',
  ),
  ERR_SIGNUP_RATE_LIMIT: entry(
    429,
    'Muitos cadastros feitos a partir deste endereço. Tente novamente mais tarde.',
    'Too many sign-ups from this address. Please try again later.',
    'Demasiados registros desde esta dirección. Inténtelo de nuevo más tarde.',
  ),
  ERR_SIGNUP_BUSY: entry(
    429,
    'Muitos cadastros no momento. Tente novamente em alguns minutos.',
    'Too many sign-ups right now. Please try again in a few minutes.',
    'Demasiados registros en este momento. Inténtelo de nuevo en unos minutos.',
  ),
  ERR_MEDIA_LINK_EXPIRED: entry(
    403,
    'O link deste arquivo expirou. Abra a conversa novamente.',
    'This file link has expired. Open the conversation again.',
    'El enlace de este archivo expiró. Abra la conversación de nuevo.',
  ),
  ERR_MEDIA_LINK_INVALID: entry(
    403,
    'Link de arquivo inválido.',
    'Invalid file link.',
    'Enlace de archivo inválido.',
  ),
  ERR_INVALID_TOKEN: entry(
    403,
    'Token inválido ou expirado.',
    'Invalid or expired token.',
    'Token inválido o expirado.',
  ),
  ERR_PLAN_FEATURE_DISABLED: entry(
    403,
    'Este recurso não está disponível no plano da sua empresa.',
    'This feature is not available in your company’s plan.',
    'Esta función no está disponible en el plan de su empresa.',
  ),
  ERR_PLAN_LIMIT_USERS: entry(
    403,
    'Limite de usuários do plano atingido.',
    'The plan’s user limit was reached.',
    'Se alcanzó el límite de usuarios del plan.',
  ),
  ERR_PLAN_LIMIT_CONNECTIONS: entry(
    403,
    'Limite de conexões do plano atingido.',
    'The plan’s connection limit was reached.',
    'Se alcanzó el límite de conexiones del plan.',
  ),
  ERR_PLAN_LIMIT_QUEUES: entry(
    403,
    'Limite de filas do plano atingido.',
    'The plan’s queue limit was reached.',
    'Se alcanzó el límite de colas del plan.',
  ),
  ERR_EMAIL_ALREADY_EXISTS: entry(
    409,
    'Já existe um usuário com este e-mail.',
    'A user with this e-mail already exists.',
    'Ya existe un usuario con este correo.',
  ),
  ERR_COMPANY_NAME_EXISTS: entry(
    409,
    'Já existe uma empresa com este nome.',
    'A company with this name already exists.',
    'Ya existe una empresa con este nombre.',
  ),
  ERR_NO_COMPANY_FOUND: entry(
    404,
    'Nenhuma empresa encontrada com este ID.',
    'No company found with this ID.',
    'No se encontró ninguna empresa con este ID.',
  ),
  ERR_NO_PLAN_FOUND: entry(
    404,
    'Nenhum plano encontrado com este ID.',
    'No plan found with this ID.',
    'No se encontró ningún plan con este ID.',
  ),
  ERR_PLAN_IN_USE: entry(
    409,
    'Este plano está em uso por empresas.',
    'This plan is used by companies.',
    'Este plan está en uso por empresas.',
  ),
  ERR_REGISTRATION_DISABLED: entry(
    403,
    'O cadastro de novas empresas está desabilitado.',
    'Sign-up of new companies is disabled.',
    'El registro de nuevas empresas está deshabilitado.',
  ),
  ERR_EMAIL_NOT_FOUND: entry(
    404,
    'E-mail não encontrado.',
    'E-mail not found.',
    'Correo no encontrado.',
  ),
  ERR_INVALID_RESET_TOKEN: entry(
    400,
    'Código de verificação inválido ou expirado.',
    'Invalid or expired verification code.',
    'Código de verificación inválido o expirado.',
  ),
  ERR_WEAK_PASSWORD: entry(
    400,
    'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    'Your password needs at least 8 characters, with an uppercase letter, a lowercase letter and a digit.',
    'Su contraseña necesita al menos 8 caracteres, con una mayúscula, una minúscula y un número.',
  ),
  ERR_MAIL_NOT_CONFIGURED: entry(
    503,
    'O envio de e-mail não está configurado neste servidor.',
    'E-mail sending is not configured on this server.',
    'El envío de correo no está configurado en este servidor.',
  ),
  ERR_CANNOT_DELETE_SELF: entry(
    400,
    'Você não pode excluir o próprio usuário.',
    'You cannot delete your own user.',
    'No puede eliminar su propio usuario.',
  ),
  ERR_CANNOT_DELETE_PLATFORM_COMPANY: entry(
    400,
    'A empresa da plataforma não pode ser excluída.',
    'The platform company cannot be deleted.',
    'La empresa de la plataforma no se puede eliminar.',
  ),
  ERR_INTERNAL: entry(
    500,
    'Erro interno do servidor.',
    'Internal server error.',
    'Error interno del servidor.',
  ),
  // issue 4: tickets, messages, contacts, tags, dashboard
  ERR_TICKET_ACCESS_DENIED: entry(
    403,
    'Acesso não permitido',
    'Access not allowed',
    'Acceso no permitido',
  ),
  ERR_INVALID_TICKET_TRANSITION: entry(
    409,
    'Esta ação não é possível no estado atual do tíquete.',
    'This action is not possible in the ticket’s current state.',
    'Esta acción no es posible en el estado actual del ticket.',
  ),
  ERR_TRANSFER_QUEUE_REQUIRED: entry(
    400,
    'Selecione uma fila',
    'Select a queue',
    'Seleccione una cola',
  ),
  ERR_NO_QUEUE_FOUND: entry(
    404,
    'Nenhuma fila encontrada com este ID.',
    'No queue found with this ID.',
    'No se encontró ninguna cola con este ID.',
  ),
  ERR_NO_MESSAGE_FOUND: entry(
    404,
    'Nenhuma mensagem encontrada com este ID.',
    'No message found with this ID.',
    'No se encontró ningún mensaje con este ID.',
  ),
  ERR_MESSAGE_NOT_OWN: entry(
    403,
    'Só é possível editar ou excluir as próprias mensagens.',
    'You can only edit or delete your own messages.',
    'Solo puede editar o eliminar sus propios mensajes.',
  ),
  ERR_EMPTY_MESSAGE: entry(
    400,
    'A mensagem está vazia.',
    'The message is empty.',
    'El mensaje está vacío.',
  ),
  ERR_NO_TAG_FOUND: entry(
    404,
    'Nenhuma tag encontrada com este ID.',
    'No tag found with this ID.',
    'No se encontró ninguna etiqueta con este ID.',
  ),
  ERR_TAG_NAME_EXISTS: entry(
    409,
    'Já existe uma tag com este nome.',
    'A tag with this name already exists.',
    'Ya existe una etiqueta con este nombre.',
  ),
  ERR_NO_NOTE_FOUND: entry(
    404,
    'Nenhuma observação encontrada com este ID.',
    'No note found with this ID.',
    'No se encontró ninguna nota con este ID.',
  ),
  ERR_IMPORT_FILE: entry(
    400,
    'Não foi possível ler o arquivo. Envie um arquivo xlsx, xls ou csv.',
    'Could not read the file. Send an xlsx, xls or csv file.',
    'No se pudo leer el archivo. Envíe un archivo xlsx, xls o csv.',
  ),
  ERR_DASHBOARD_FILTER: entry(
    400,
    'Parametrize o filtro',
    'Set up the filter',
    'Configure el filtro',
  ),
  // issue 3: connections, sessions, media
  ERR_WAPP_NAME_EXISTS: entry(
    409,
    'Já existe uma conexão com este nome.',
    'A connection with this name already exists.',
    'Ya existe una conexión con este nombre.',
  ),
  ERR_UNSUPPORTED_MEDIA_TYPE: entry(
    415,
    'Tipo de arquivo não permitido.',
    'File type not allowed.',
    'Tipo de archivo no permitido.',
  ),
  // issue 11: uploads
  ERR_STORAGE_QUOTA_EXCEEDED: entry(
    413,
    'O espaço de armazenamento de arquivos da empresa se esgotou.',
    "The company's file storage quota is used up.",
    'El espacio de almacenamiento de archivos de la empresa se agotó.',
  ),
  ERR_INVALID_MEDIA: entry(
    400,
    'Não foi possível processar o arquivo de mídia.',
    'The media file could not be processed.',
    'No se pudo procesar el archivo multimedia.',
  ),
  ERR_NOT_SIMULATOR: entry(
    400,
    'Esta conexão não usa o simulador.',
    'This connection does not use the simulator.',
    'Esta conexión no usa el simulador.',
  ),
  // issue 5: queues, option trees, quick messages, routing
  ERR_QUEUE_NAME_ALREADY_EXISTS: entry(
    409,
    'Já existe uma fila com este nome.',
    'A queue with this name already exists.',
    'Ya existe una cola con este nombre.',
  ),
  ERR_NO_QUEUE_OPTION_FOUND: entry(
    404,
    'Nenhuma opção encontrada com este ID.',
    'No option found with this ID.',
    'No se encontró ninguna opción con este ID.',
  ),
  ERR_NO_QUICK_MESSAGE_FOUND: entry(
    404,
    'Nenhuma resposta rápida encontrada com este ID.',
    'No quick message found with this ID.',
    'No se encontró ninguna respuesta rápida con este ID.',
  ),
  // Referenced rows the platform does not have yet (AI prompts, integrations): never found.
  ERR_NO_PROMPT_FOUND: entry(
    404,
    'Nenhum prompt encontrado com este ID.',
    'No prompt found with this ID.',
    'No se encontró ningún prompt con este ID.',
  ),
  ERR_NO_INTEGRATION_FOUND: entry(
    404,
    'Nenhuma integração encontrada com este ID.',
    'No integration found with this ID.',
    'No se encontró ninguna integración con este ID.',
  ),
  // Upload and body errors (multer, busboy, the JSON parser): bad input, never a 500.
  ERR_FILE_TOO_LARGE: entry(
    413,
    'O arquivo é maior que o permitido.',
    'The file is larger than allowed.',
    'El archivo es más grande de lo permitido.',
  ),
  ERR_TOO_MANY_FILES: entry(
    400,
    'Arquivos demais em um só envio.',
    'Too many files in one upload.',
    'Demasiados archivos en un solo envío.',
  ),
  ERR_UNEXPECTED_FILE: entry(
    400,
    'Arquivo enviado em um campo inesperado.',
    'File sent in an unexpected field.',
    'Archivo enviado en un campo inesperado.',
  ),
  ERR_MALFORMED_MULTIPART: entry(
    400,
    'O envio do formulário está malformado ou incompleto.',
    'The form upload is malformed or incomplete.',
    'El envío del formulario está mal formado o incompleto.',
  ),
  ERR_CONFLICT: entry(
    409,
    'A alteração conflita com outro registro. Atualize a página e tente de novo.',
    'The change conflicts with another record. Reload and try again.',
    'El cambio entra en conflicto con otro registro. Recargue e inténtelo de nuevo.',
  ),
  ERR_UNSUPPORTED_ENCODING: entry(
    415,
    'Codificação do corpo da requisição não suportada.',
    'Unsupported request body encoding.',
    'Codificación del cuerpo de la solicitud no admitida.',
  ),
  // billing (issue 15)
  ERR_NO_INVOICE_FOUND: entry(
    404,
    'Fatura não encontrada.',
    'Invoice not found.',
    'Factura no encontrada.',
  ),
  ERR_INVOICE_ALREADY_PAID: entry(
    409,
    'Esta fatura já está paga.',
    'This invoice is already paid.',
    'Esta factura ya está pagada.',
  ),
  ERR_PAYMENT_BELOW_INVOICE: entry(
    400,
    'O valor pago é menor que o valor da fatura.',
    'The amount paid is less than the invoice.',
    'El monto pagado es menor que el de la factura.',
  ),
  ERR_WEBHOOK_UNAUTHORIZED: entry(
    401,
    'Notificação de pagamento não autenticada.',
    'Payment notification not authenticated.',
    'Notificación de pago no autenticada.',
  ),
  ERR_BILLING_NOT_CONFIGURED: entry(
    409,
    'O recebimento por Pix ainda não foi configurado. Fale com o suporte.',
    'Pix payments are not set up yet. Contact support.',
    'El cobro por Pix aún no está configurado. Contacte al soporte.',
  ),
  ERR_BILLING_INVALID_SETTINGS: entry(
    400,
    'Configuração de pagamento inválida: {{reason}}.',
    'Invalid payment settings: {{reason}}.',
    'Configuración de pago inválida: {{reason}}.',
  ),
  ERR_BILLING_DOCUMENT_REQUIRED: entry(
    400,
    'Informe o CPF ou CNPJ da empresa para gerar a cobrança.',
    "Enter the company's CPF or CNPJ to create the charge.",
    'Informe el CPF o CNPJ de la empresa para generar el cobro.',
  ),
  ERR_BILLING_PROVIDER: entry(
    502,
    'O provedor de pagamentos não respondeu como esperado. Tente novamente em instantes.',
    'The payment provider did not answer as expected. Try again shortly.',
    'El proveedor de pagos no respondió como se esperaba. Inténtelo de nuevo en breve.',
  ),
  // Outside services (issue 18): a prompt's or an integration's call failed. The message never
  // carries the credential or the provider's raw answer.
  ERR_INTEGRATION_AUTH: entry(
    400,
    'O serviço externo recusou a credencial (chave ou token inválido).',
    'The outside service refused the credential (invalid key or token).',
    'El servicio externo rechazó la credencial (clave o token no válido).',
  ),
  ERR_INTEGRATION_FORBIDDEN: entry(
    400,
    'A credencial não tem permissão para esta operação ou a API está desativada.',
    'The credential lacks permission for this operation or the API is disabled.',
    'La credencial no tiene permiso para esta operación o la API está desactivada.',
  ),
  ERR_INTEGRATION_NOT_FOUND: entry(
    400,
    'O serviço externo não encontrou o recurso configurado (projeto, modelo ou fluxo).',
    'The outside service did not find the configured resource (project, model or flow).',
    'El servicio externo no encontró el recurso configurado (proyecto, modelo o flujo).',
  ),
  ERR_INTEGRATION_CREDENTIALS_INVALID: entry(
    400,
    'A credencial informada está malformada.',
    'The credential given is malformed.',
    'La credencial indicada tiene un formato incorrecto.',
  ),
  ERR_INTEGRATION_REJECTED: entry(
    502,
    'O serviço externo recusou a requisição.',
    'The outside service refused the request.',
    'El servicio externo rechazó la solicitud.',
  ),
  ERR_INTEGRATION_RATE_LIMITED: entry(
    503,
    'O serviço externo limitou as requisições ou o crédito acabou. Tente mais tarde.',
    'The outside service is rate limiting or the credit ran out. Try again later.',
    'El servicio externo limitó las solicitudes o se agotó el crédito. Inténtelo más tarde.',
  ),
  ERR_INTEGRATION_UNAVAILABLE: entry(
    502,
    'O serviço externo está com falha.',
    'The outside service is failing.',
    'El servicio externo está fallando.',
  ),
  ERR_INTEGRATION_UNREACHABLE: entry(
    502,
    'Não foi possível conectar ao serviço externo.',
    'Could not connect to the outside service.',
    'No se pudo conectar con el servicio externo.',
  ),
  ERR_INTEGRATION_TIMEOUT: entry(
    504,
    'O serviço externo não respondeu a tempo.',
    'The outside service did not answer in time.',
    'El servicio externo no respondió a tiempo.',
  ),
  ERR_INTEGRATION_BAD_ANSWER: entry(
    502,
    'O serviço externo respondeu em um formato inesperado.',
    'The outside service answered in an unexpected format.',
    'El servicio externo respondió en un formato inesperado.',
  ),
  // issue 15: super-user settings tabs (logos, helps, plans)
  ERR_LOGO_DESTINATION_REQUIRED: entry(
    400,
    'Escolha um destino!',
    'Choose a destination!',
    '¡Elija un destino!',
  ),
  ERR_LOGO_FILE_REQUIRED: entry(400, 'Escolha um arquivo!', 'Choose a file!', '¡Elija un archivo!'),
  ERR_LOGO_TYPE: entry(
    415,
    'Use somente arquivos em formato PNG, ICO ou SVG!',
    'Use only PNG, ICO or SVG files!',
    '¡Use solo archivos en formato PNG, ICO o SVG!',
  ),
  ERR_LOGO_SVG_ACTIVE_CONTENT: entry(
    415,
    'O SVG contém scripts ou conteúdo ativo e não foi aceito.',
    'The SVG holds scripts or active content and was refused.',
    'El SVG contiene scripts o contenido activo y fue rechazado.',
  ),
  ERR_NO_LOGO_FOUND: entry(
    404,
    'Nenhum logotipo enviado para este destino.',
    'No logo was uploaded for this destination.',
    'No se envió ningún logotipo para este destino.',
  ),
  ERR_NO_HELP_FOUND: entry(
    404,
    'Nenhuma ajuda encontrada com este ID.',
    'No help found with this ID.',
    'No se encontró ninguna ayuda con este ID.',
  ),
  // Campaigns (issue 16).
  ERR_NO_CAMPAIGN_FOUND: entry(
    404,
    'Nenhuma campanha encontrada com este ID.',
    'No campaign found with this ID.',
    'No se encontró ninguna campaña con este ID.',
  ),
  ERR_CAMPAIGN_NOT_EDITABLE: entry(
    409,
    'Esta campanha não pode mais ser alterada: só é editável inativa, programada com mais de 1 hora de antecedência, ou (apenas as mensagens) cancelada.',
    'This campaign can no longer be changed: it is editable only when inactive, scheduled more than 1 hour ahead, or (messages only) cancelled.',
    'Esta campaña ya no se puede modificar: solo es editable inactiva, programada con más de 1 hora de antelación o (solo los mensajes) cancelada.',
  ),
  ERR_CAMPAIGN_NOT_CANCELLABLE: entry(
    409,
    'Somente campanhas programadas ou em andamento podem ser canceladas.',
    'Only scheduled or running campaigns can be cancelled.',
    'Solo se pueden cancelar campañas programadas o en curso.',
  ),
  ERR_CAMPAIGN_NOT_RESTARTABLE: entry(
    409,
    'Somente campanhas canceladas podem ser reiniciadas.',
    'Only cancelled campaigns can be restarted.',
    'Solo se pueden reiniciar campañas canceladas.',
  ),
  ERR_CAMPAIGN_RUNNING: entry(
    409,
    'Cancele a campanha antes de excluí-la.',
    'Cancel the campaign before deleting it.',
    'Cancele la campaña antes de eliminarla.',
  ),
  ERR_CAMPAIGN_INCOMPLETE: entry(
    400,
    'Para programar a campanha informe a conexão, a lista de contatos ou a tag, e ao menos uma mensagem.',
    'To schedule the campaign, choose the connection, the contact list or tag, and at least one message.',
    'Para programar la campaña indique la conexión, la lista de contactos o la etiqueta y al menos un mensaje.',
  ),
  ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND: entry(
    404,
    'Lista de contatos não encontrada.',
    'Contact list not found.',
    'Lista de contactos no encontrada.',
  ),
  ERR_CAMPAIGN_FILE_LIST_NOT_FOUND: entry(
    404,
    'Lista de arquivos não encontrada.',
    'File list not found.',
    'Lista de archivos no encontrada.',
  ),
  ERR_CAMPAIGN_TAG_NOT_FOUND: entry(
    404,
    'Tag não encontrada.',
    'Tag not found.',
    'Etiqueta no encontrada.',
  ),
  // issue 16: contact lists and file lists
  ERR_NO_CONTACT_LIST_FOUND: entry(
    404,
    'Lista de contatos não encontrada.',
    'Contact list not found.',
    'Lista de contactos no encontrada.',
  ),
  ERR_NO_CONTACT_LIST_ITEM_FOUND: entry(
    404,
    'Contato da lista não encontrado.',
    'Contact list item not found.',
    'Contacto de la lista no encontrado.',
  ),
  ERR_CONTACT_LIST_ITEM_EXISTS: entry(
    409,
    'Este número já está na lista.',
    'This number is already on the list.',
    'Este número ya está en la lista.',
  ),
  ERR_CONTACT_LIST_NUMBER: entry(
    400,
    'Número inválido: informe DDI, DDD e número (ex.: 5511987654321).',
    'Invalid number: give the country code, area code and number (e.g. 5511987654321).',
    'Número inválido: indique el código de país, de área y el número (ej.: 5511987654321).',
  ),
  ERR_NO_IMPORT_FOUND: entry(
    404,
    'Importação não encontrada.',
    'Import not found.',
    'Importación no encontrada.',
  ),
  ERR_IMPORT_RUNNING: entry(
    409,
    'Já existe uma importação em andamento para esta lista.',
    'An import into this list is already running.',
    'Ya hay una importación en curso para esta lista.',
  ),
  ERR_IMPORT_HEADER: entry(
    400,
    'A planilha precisa de uma linha de cabeçalho com as colunas nome e número (ou telefone, celular, whatsapp).',
    'The sheet needs a header row with the columns name and number (or phone, mobile, whatsapp).',
    'La hoja necesita una fila de encabezado con las columnas nombre y número (o teléfono, celular, whatsapp).',
  ),
  ERR_IMPORT_UNSAFE: entry(
    400,
    'A planilha tem uma coluna com nome proibido (__proto__, constructor ou prototype) e foi recusada.',
    'The sheet has a column with a forbidden name (__proto__, constructor or prototype) and was refused.',
    'La hoja tiene una columna con un nombre prohibido (__proto__, constructor o prototype) y fue rechazada.',
  ),
  ERR_IMPORT_TOO_MANY_ROWS: entry(
    413,
    'A planilha tem mais de {{max}} linhas.',
    'The sheet has more than {{max}} rows.',
    'La hoja tiene más de {{max}} filas.',
  ),
  ERR_IMPORT_TIMEOUT: entry(
    422,
    'A planilha demorou demais para ser lida e foi recusada.',
    'The sheet took too long to read and was refused.',
    'La hoja tardó demasiado en leerse y fue rechazada.',
  ),
  ERR_IMPORT_MISMATCH: entry(
    415,
    'O arquivo não é o que diz ser: envie uma planilha xlsx, xls ou csv de verdade.',
    'The file is not what it claims to be: send a real xlsx, xls or csv sheet.',
    'El archivo no es lo que dice ser: envíe una hoja xlsx, xls o csv real.',
  ),
  ERR_NO_FILE_LIST_FOUND: entry(
    404,
    'Lista de arquivos não encontrada.',
    'File list not found.',
    'Lista de archivos no encontrada.',
  ),
  ERR_NO_SCHEDULE_FOUND: entry(
    404,
    'Nenhum agendamento encontrado com este ID.',
    'No schedule found with this ID.',
    'No se encontró ningún agendamiento con este ID.',
  ),
  ERR_SCHEDULE_IN_PAST: entry(
    400,
    'A data de envio precisa estar no futuro.',
    'The send time must be in the future.',
    'La fecha de envío debe estar en el futuro.',
  ),
  ERR_SCHEDULE_ALREADY_SENT: entry(
    409,
    'Este agendamento já foi enviado e não pode ser alterado.',
    'This schedule was already sent and cannot be changed.',
    'Este agendamiento ya fue enviado y no se puede cambiar.',
  ),
  ERR_TAG_NOT_KANBAN: entry(
    400,
    'Esta tag não é uma coluna do Kanban.',
    'This tag is not a kanban lane.',
    'Esta etiqueta no es una columna del Kanban.',
  ),
  ERR_KANBAN_MOVE_CONFLICT: entry(
    409,
    'O ticket foi movido por outra pessoa. O quadro foi atualizado.',
    'Someone else moved this ticket. The board was refreshed.',
    'Otra persona movió este ticket. El tablero se actualizó.',
  ),
  // issue 17: internal chat and announcements
  ERR_NO_CHAT_FOUND: entry(
    404,
    'Nenhuma conversa encontrada com este ID.',
    'No chat found with this ID.',
    'No se encontró ninguna conversación con este ID.',
  ),
  ERR_CHAT_NOT_OWNER: entry(
    403,
    'Somente o dono da conversa pode alterá-la ou excluí-la.',
    'Only the owner of the chat may change or delete it.',
    'Solo el dueño de la conversación puede cambiarla o eliminarla.',
  ),
  ERR_NO_ANNOUNCEMENT_FOUND: entry(
    404,
    'Nenhum informativo encontrado com este ID.',
    'No announcement found with this ID.',
    'No se encontró ningún anuncio con este ID.',
  ),
  // Queue integrations (issue 18 item 2): what is wrong with the form, precisely.
  ERR_INTEGRATION_URL_INVALID: entry(
    400,
    'Informe uma URL http:// ou https:// válida para a integração.',
    'Enter a valid http:// or https:// URL for the integration.',
    'Indique una URL http:// o https:// válida para la integración.',
  ),
  ERR_INTEGRATION_SLUG_REQUIRED: entry(
    400,
    'Informe o nome público (slug) do fluxo do Typebot.',
    "Enter the Typebot flow's public name (slug).",
    'Indique el nombre público (slug) del flujo de Typebot.',
  ),
  ERR_INTEGRATION_JSON_REQUIRED: entry(
    400,
    'Cole o JSON da conta de serviço do Google (Dialogflow).',
    "Paste the Google service account's JSON (Dialogflow).",
    'Pegue el JSON de la cuenta de servicio de Google (Dialogflow).',
  ),
  ERR_INTEGRATION_TYPE_LOCKED: entry(
    400,
    'O tipo de uma integração não pode ser alterado; crie outra.',
    "An integration's type cannot be changed; create another.",
    'El tipo de una integración no se puede cambiar; cree otra.',
  ),
  ERR_INTEGRATION_NO_SECRET: entry(
    400,
    'Somente integrações n8n e webhook têm segredo de assinatura.',
    'Only n8n and webhook integrations have a signing secret.',
    'Solo las integraciones n8n y webhook tienen secreto de firma.',
  ),
  ERR_NO_DELIVERY_FOUND: entry(
    404,
    'Nenhuma entrega encontrada com este ID.',
    'No delivery found with this ID.',
    'No se encontró ninguna entrega con este ID.',
  ),
  ERR_DELIVERY_NOT_DEAD: entry(
    400,
    'Somente entregas que falharam podem ser reenviadas.',
    'Only failed deliveries can be sent again.',
    'Solo las entregas fallidas se pueden reenviar.',
  ),
  // External messages API (issue 18 item 3).
  ERR_API_TOKEN_INVALID: entry(
    401,
    'Token da conexão ausente ou inválido.',
    "The connection's token is missing or invalid.",
    'El token de la conexión falta o no es válido.',
  ),
  ERR_API_RATE_LIMITED: entry(
    429,
    'Limite de envios pela API atingido. Aguarde e tente novamente.',
    'API sending limit reached. Wait and try again.',
    'Se alcanzó el límite de envíos por la API. Espere e inténtelo de nuevo.',
  ),
  ERR_IDEMPOTENCY_KEY_REUSED: entry(
    422,
    'Esta Idempotency-Key já foi usada com outra requisição.',
    'This Idempotency-Key was already used with another request.',
    'Esta Idempotency-Key ya se usó con otra solicitud.',
  ),
  ERR_IDEMPOTENCY_IN_PROGRESS: entry(
    409,
    'Uma requisição com esta Idempotency-Key ainda está em andamento.',
    'A request with this Idempotency-Key is still in progress.',
    'Una solicitud con esta Idempotency-Key aún está en curso.',
  ),
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);

export const errorStatus = (code: ErrorCode): number => ERRORS[code].status;

/** Text of a code in a language, with `{{name}}` placeholders filled from `params`. */
export function errorText(
  code: ErrorCode,
  lang: Lang = 'pt-BR',
  params: Record<string, string | number> = {},
): string {
  return ERRORS[code].text[lang].replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    String(params[name] ?? ''),
  );
}

/** The body every error answer has. `details` carries extra data some codes need. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: unknown;
}
